"""The games app's write API for other apps and commands: submitting records, adjudicating them.

A face only: the writes live in their rooms (`games/records/services.py`,
`games/adjudication/`), and the reports' writes are `games.reports`.
"""

from games.adjudication.claims import record_claim
from games.adjudication.services import record_adjudicate, records_adjudicate_pending
from games.adjudication.sweep import records_sweep_stale
from games.records.queueing import adjudication_schedule_release, enqueue_adjudication
from games.records.services import Submission, record_submit

__all__ = [
    "Submission",
    "adjudication_schedule_release",
    "enqueue_adjudication",
    "record_adjudicate",
    "record_claim",
    "record_submit",
    "records_adjudicate_pending",
    "records_sweep_stale",
]
