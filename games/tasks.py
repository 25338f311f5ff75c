from __future__ import annotations

import time
import uuid

from celery import shared_task
from django.conf import settings

from games.adjudication.services import record_adjudicate, records_adjudicate_pending
from games.adjudication.sweep import records_sweep_stale
from games.records.queueing import adjudication_schedule_release
from games.reports.answers import reports_confirm_overdue


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=20,
    name="games.tasks.adjudicate_record",
)
def adjudicate_record(self, record_id: int) -> str:
    """Adjudicate one record.

    Late acknowledgement plus rejection on worker loss means a killed worker's message is
    delivered again; the conditional claim in the service makes that (and any duplicate) a
    no-op once the work is done. When another worker holds a fresh claim we retry after the
    stale window, so a claim orphaned by a killed worker is taken over without waiting for beat.
    """
    outcome = record_adjudicate(record_id=record_id)
    if outcome == "busy" and not self.request.is_eager:
        raise self.retry(countdown=settings.GAME_RECORD_STALE_SECONDS + 1)
    return outcome


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    name="games.tasks.adjudicate_pending",
)
def adjudicate_pending(self, record_id: int | None = None) -> int:
    """Adjudicate the pending records, a batch per transaction, until none is left.

    Queued by a submission when no such task is queued (`records.queueing.enqueue_adjudication`);
    `record_id` only says which submission queued it. The "queued" key is given back first, so
    a record stored from now on queues the next task, and one stored before is claimed here.
    The task's id is the claim token: delivered again after its worker died (late
    acknowledgement, rejection on worker loss), it takes over at once the records its first
    delivery had claimed. Returns how many records it stored.
    """
    adjudication_schedule_release()
    token = uuid.UUID(self.request.id) if self.request.id else uuid.uuid4()
    stored, orphans = 0, True
    while outcomes := records_adjudicate_pending(token=token, orphans=orphans):
        stored += sum(outcomes.values())
        orphans = False  # only the first claim can meet what an earlier delivery left
        if sum(outcomes.values()) < settings.GAME_ADJUDICATION_BATCH and not self.request.is_eager:
            # Records are arriving (this claim found some) but fewer than a batch: let the next
            # batch gather a moment. Each claim and commit costs the same for one record as for
            # twenty, so on a busy site this is CPU handed back to the web processes; a record
            # waits at most this long more, and an idle site ends the task one pause later.
            time.sleep(BATCH_GATHER_SECONDS)
    return stored


# How long a busy adjudication task lets records gather between two small batches.
BATCH_GATHER_SECONDS = 0.1


@shared_task(name="games.tasks.sweep_stale_records", acks_late=True)
def sweep_stale_records() -> int:
    """Beat task: re-enqueue stale records. Safe to run twice: adjudication is idempotent."""
    return len(records_sweep_stale())


@shared_task(name="games.tasks.confirm_overdue_reports", acks_late=True)
def confirm_overdue_reports() -> int:
    """Beat task: reports nobody answered in time stand. Safe to run twice: each version is
    settled under its game's row lock and only while it is still open."""
    return len(reports_confirm_overdue())
