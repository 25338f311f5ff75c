"""Entering a table-open round's results from the score sheets, all at once or not at all.

**Decision:** a controller types what the sheet at the table says; in a face-to-face open both
players sign that sheet at the table, so the typed result stands at once (no report to
confirm). A typing slip is corrected by entering the table again: the correction is audited
with the result it replaces, and it never re-pairs rounds already published.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.score_sheet import ScoreSheet, ScoreSheetError, score_sheet_parse
from players.audit.registry import register_audit_type
from players.types import User
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Event,
    EventStatus,
    Match,
    MatchStatus,
    Round,
    TableResult,
    TableResultState,
)
from tournaments.opens.services.table_opens import require_table_open, rounds_prepare
from tournaments.services.access import require_ruler
from tournaments.services.audit import audit
from tournaments.services.progression import match_finish
from tournaments.services.rounds import match_close

SHEET_FIELDS = ("score_a", "score_b", "ending", "conceded_by", "minutes_a", "minutes_b")


class TableResultsError(ValueError):
    """Refused results: `errors` maps a table number (or "results") to field messages."""

    def __init__(self, errors: Mapping[str, Any]) -> None:
        self.errors = dict(errors)
        super().__init__(str(self.errors))


def sheet_of(result: TableResult) -> ScoreSheet:
    return score_sheet_parse({name: getattr(result, name) for name in SHEET_FIELDS})


def _write(result: TableResult, sheet: ScoreSheet) -> None:
    for name, value in sheet.as_dict().items():
        setattr(result, name, value)
    result.conceded_by = sheet.conceded_by


def sides_named(match: Match) -> tuple[str, str]:
    return (match.entry_a.player.display_name, match.entry_b.player.display_name)


def result_write(
    event: Event,
    match: Match,
    result: TableResult | None,
    sheet: ScoreSheet,
    *,
    actor: User,
    now: dt.datetime,
) -> TableResult:
    """Store the sheet as the table's result and settle the match from it: a first result
    finishes the match (and may pair the next round), a changed one only re-closes it."""
    first = result is None
    if result is None:
        result = TableResult(match=match)
    _write(result, sheet)
    result.entered_by = actor if actor.is_authenticated else None
    result.entered_at = now
    result.save()
    match.tps_a, match.tps_b = formats.result_tps(
        sheet.score_a, sheet.score_b, conceded_by=sheet.conceded_by, scheme=event.tp_scheme
    )
    match.games_played = 1
    match.save(update_fields=["tps_a", "tps_b", "games_played"])
    winner = (match.entry_a, match.entry_b)[sheet.winner_seat] if not sheet.is_draw else None
    settle = match_finish if first else match_close
    settle(match, winner=winner, status=MatchStatus.DECIDED, reason="score_sheet")
    return result


# A table settled without a game, by how (whole sentences: a status is not glued in).
_SETTLED_WITHOUT_GAME = {
    MatchStatus.WALKOVER: gettext_lazy("Table %(table)s was settled without a game (walkover)."),
    MatchStatus.VOID: gettext_lazy(
        "Table %(table)s was settled without a game (void (neither side))."
    ),
    MatchStatus.RULED: gettext_lazy(
        "Table %(table)s was settled without a game (ruled by an organiser)."
    ),
    MatchStatus.DECIDED: gettext_lazy("Table %(table)s was settled without a game (decided)."),
}


def _settled_without_game(match: Match, table: int) -> str:
    template = _SETTLED_WITHOUT_GAME.get(match.status) or _(
        "Table %(table)s was settled without a game."
    )
    return template % {"table": table}


def _result_held(result: TableResult, table: int) -> str:
    """A disputed or ruled result changes only by a ruling."""
    if result.state == TableResultState.DISPUTED:
        template = _(
            "Table %(table)s's result is disputed: it changes by a ruling on its own page, "
            "not here."
        )
    else:
        template = _(
            "Table %(table)s's result is ruled: it changes by a ruling on its own page, not here."
        )
    return template % {"table": table}


def _round_locked(round_: Round) -> tuple[Event, dict[int, Match]]:
    """The open's row locked, then the round's tables (locked too) by table number.

    The event lock makes the writers of an open's results take turns: whoever enters a
    round's last table sees every other table final and pairs the next round, exactly once.
    Without it, two controllers typing the two halves of a round at once would each see the
    other's tables still open, and nobody would pair the next round (the concurrency test
    shows both)."""
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=round_.event_id)
    )
    require_table_open(event)
    if event.status not in (EventStatus.DRAWN, EventStatus.FINISHED):
        raise TableResultsError({"results": [_("The open has not started: make the draw first.")]})
    # Idempotent: numbers the tables of a round drawn by the generic draw, as the pages do.
    rounds_prepare(event)
    tables = {
        m.bracket_index + 1: m
        for m in Match.objects.select_for_update(of=("self",))
        .select_related("entry_a__player", "entry_b__player")
        .filter(round=round_)
        .exclude(bracket_index=None)
    }
    return event, tables


@transaction.atomic
def table_results_enter(
    *, actor: User, round_: Round, sheets: Mapping[int, Mapping[str, Any]]
) -> list[TableResult]:
    """Enter (or correct) the results of some or all tables of a round from their sheets.

    `sheets` maps table numbers to sheet fields (games.score_sheet). Every sheet is checked
    before anything is written: one bad sheet refuses them all (`TableResultsError`)."""
    require_ruler(actor, round_.event.championship)
    if not sheets:
        raise TableResultsError({"results": [_("Enter at least one table's result.")]})
    event, tables = _round_locked(round_)
    existing = {r.match_id: r for r in TableResult.objects.filter(match__round=round_)}
    errors: dict[str, Any] = {}
    checked: list[tuple[Match, ScoreSheet]] = []
    for table, data in sorted(sheets.items()):
        match = tables.get(table)
        if match is None:
            errors[str(table)] = {
                "table": [
                    _("%(round)s has no table %(table)s.") % {"round": round_, "table": table}
                ]
            }
        elif match.is_bye:
            errors[str(table)] = {
                "table": [_("Table %(table)s is a bye: nothing to enter.") % {"table": table}]
            }
        elif match.status in FINAL_MATCH_STATUSES and match.pk not in existing:
            errors[str(table)] = {"table": [_settled_without_game(match, table)]}
        elif match.pk in existing and existing[match.pk].state != TableResultState.ENTERED:
            errors[str(table)] = {"table": [_result_held(existing[match.pk], table)]}
        else:
            try:
                checked.append((match, score_sheet_parse(data)))
            except ScoreSheetError as exc:
                errors[str(table)] = exc.errors
    if errors:
        raise TableResultsError(errors)

    now = timezone.now()
    entered: dict[str, str] = {}
    corrected: list[dict[str, Any]] = []
    # Corrections first: a new result may complete the round and pair the next one, which
    # must see the corrected standings.
    checked.sort(key=lambda pair: pair[0].pk not in existing)
    written = []
    for match, sheet in checked:
        table = match.bracket_index + 1
        result = existing.get(match.pk)
        before = sheet_of(result) if result else None
        if before == sheet:
            written.append(result)
            continue
        written.append(result_write(event, match, result, sheet, actor=actor, now=now))
        names = sides_named(match)
        if before is None:
            entered[str(table)] = sheet.describe(*names)
        else:
            corrected.append(
                {
                    "table": table,
                    "match": match.pk,
                    "before": before.describe(*names),
                    "after": sheet.describe(*names),
                }
            )
    if entered:
        audit(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.TABLE_RESULTS_ENTER,
            target=round_.english_name,
            details={"round": round_.number, "tables": entered},
        )
    for change in corrected:
        audit(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.TABLE_RESULT_CORRECT,
            target=f"{round_.english_name}, table {change['table']}",
            details=change,
        )
    rounds_prepare(event)
    return written


# --- Audit types: the actions this module writes -------------------------------------------

register_audit_type(AuditAction.TABLE_RESULTS_ENTER, details={"round": int, "tables": dict})
register_audit_type(
    AuditAction.TABLE_RESULT_CORRECT,
    details={"table": int, "match": int, "before": str, "after": str},
)
