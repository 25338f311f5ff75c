"""What a match's page offers for reporting its games (issue 28: results without JSON).

Three ways in, one flow: the game file (uploaded, dropped, or pasted), and for a face-to-face
game the score form. They all end in `games`' report-and-confirm flow
(`games.records.services.record_submit` for a file, `games.reports.score_sheets_submit` for
the score form); this module only builds the page's forms and lists the match's reports that
wait for an answer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.models import GameReport
from games.records.forms import RecordSubmitForm
from games.reports.forms import score_formset
from games.reports.selectors import (
    match_games_unsettled,
    match_reports_open,
    names_versus,
    seat_names,
)
from players.types import User
from tournaments import selectors
from tournaments.models import Match
from tournaments.permissions import can_rule, match_side_of

#: The formset's prefix: one match page holds one score form.
SCORE_PREFIX = "games"


def side_names(match: Match) -> tuple[str, str]:
    return (
        match.entry_a.name if match.entry_a else "?",
        match.entry_b.name if match.entry_b else "?",
    )


def takes_score_form(match: Match) -> bool:
    """A score sheet seats two players: a singles match (a pairs or team match has no two seats
    to fill, games/reports/filing.py), open for games."""
    return (
        selectors.match_open_for_games(match)
        and match.entry_a.player_id is not None
        and match.entry_b.player_id is not None
    )


def games_to_report(match: Match) -> int:
    """The score form's rows: the planned games not yet counted nor reported (one at least, for
    an extra game)."""
    left = match.event.games_per_match - match.games_played - match_games_unsettled(match.pk)
    return max(1, left)


def score_formset_for(match: Match, data: Any = None):
    formset_class = score_formset(games_to_report(match))
    return formset_class(data, prefix=SCORE_PREFIX, form_kwargs={"names": side_names(match)})


def _summary(report: GameReport) -> str:
    names = seat_names(report.reported_game)
    scores = " – ".join(str(score) for score in report.scores or [])
    return f"{names_versus(names)}: {scores}" if scores else names_versus(names)


def report_forms_context(
    user: User, match: Match, *, upload_form=None, score_form=None
) -> dict[str, Any]:
    """The include's context (templates/tournaments/_match_report_forms.html), as `report`."""
    if not (user and user.is_authenticated):
        return {"report": None}
    to_answer, sent = match_reports_open(match_id=match.pk, user=user)
    for report in (*to_answer, *sent):
        report.summary = _summary(report)
    may_report = selectors.match_open_for_games(match) and (
        match_side_of(user, match) is not None or can_rule(user, match.event.championship)
    )
    return {
        "report": {
            "may_report": may_report,
            "upload_form": (upload_form or RecordSubmitForm()) if may_report else None,
            "score_form": (
                (score_form or score_formset_for(match))
                if may_report and takes_score_form(match)
                else None
            ),
            "max_bytes": settings.GAME_RECORD_MAX_BYTES,
            "to_answer": to_answer,
            "sent": sent,
        }
    }
