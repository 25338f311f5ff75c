"""Reports: a game's result stands only when both sides agree, or a ruling says so.

Every valid record (and every score sheet) is a *version* of a `ReportedGame`. A side's
version waits for the other side (`open`); the other side confirms or disputes it, or sends
the same game (same fingerprint), which confirms it. Controllers of the championship (staff
for casual games) rule on disputes; their own submissions, and staff's, stand at once. A
version nobody answers stands after GAME_REPORT_CONFIRM_HOURS (the beat task). The `Game` row
is created when a result first stands, and only then are higher apps told (`game_adjudicated`,
so the match counts it and ratings apply it, at its played time).

Who may do what is decided here; the views only translate `PermissionDenied` and
`ValidationError` into answers.
"""

from games.reports.access import may_confirm, may_reopen, may_rule, may_see
from games.reports.answers import (
    is_ruled,
    report_confirm,
    report_dispute,
    report_reopen,
    report_rule,
    reports_confirm_overdue,
)
from games.reports.filing import report_from_record, score_sheet_submit, score_sheets_submit

__all__ = [
    "is_ruled",
    "may_confirm",
    "may_reopen",
    "may_rule",
    "may_see",
    "report_confirm",
    "report_dispute",
    "report_from_record",
    "report_reopen",
    "report_rule",
    "reports_confirm_overdue",
    "score_sheet_submit",
    "score_sheets_submit",
]
