"""The round console's reads: one row per match of a round, and the round's counts.

`ConsoleRow` is the per-match row every console shows (page and API); a later feature (an
agreed time, an "unarranged" filter) adds a field here and fills it in `_row`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Max
from django.utils import timezone

from games.models import ReportedGame, ResultState
from players.models import AuditEntry
from tournaments.arrangements.selectors import agreements_for
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Match,
    Round,
    TableResult,
    TableResultState,
    sides_of,
)

# How often a match's players may be reminded (the refusal says when the next may go).
REMIND_EVERY = dt.timedelta(hours=1)


class Standing:
    """Where a match stands on the console: each match is in exactly one of these."""

    PLAYED = "played"
    DISPUTED = "disputed"
    OVERDUE = "overdue"
    WAITING = "waiting"
    ALL = (PLAYED, WAITING, OVERDUE, DISPUTED)


@dataclass(frozen=True)
class ConsoleRow:
    """One match of the round as its organisers see it."""

    match: Match
    side_a: str | None
    side_b: str | None
    group: int | None
    status: str  # the match's own status (MatchStatus)
    status_label: str
    standing: str  # one of Standing.ALL
    deadline: dt.datetime | None
    reminded_at: dt.datetime | None  # the last reminder, if any
    # The time the sides agreed (tournaments/arrangements, issue 30), if any.
    agreed_at: dt.datetime | None = None

    @property
    def played(self) -> bool:
        return self.standing == Standing.PLAYED

    def remind_after(self) -> dt.datetime | None:
        """When the next reminder may go (None: now)."""
        if self.reminded_at is None:
            return None
        after = self.reminded_at + REMIND_EVERY
        return after if after > timezone.now() else None

    @property
    def can_remind(self) -> bool:
        """Unplayed, both sides known, and not reminded within the hour."""
        return (
            not self.played
            and self.side_a is not None
            and self.side_b is not None
            and self.remind_after() is None
        )


@dataclass(frozen=True)
class RoundConsole:
    round: Round
    rows: list[ConsoleRow]
    counts: dict[str, int] = field(default_factory=dict)  # Standing -> matches

    @property
    def unplayed(self) -> list[ConsoleRow]:
        return [row for row in self.rows if not row.played]


def last_reminders(match_ids: list[int]) -> dict[int, dt.datetime]:
    """The last reminder of each match (the audit trail is the record of them)."""
    if not match_ids:
        return {}
    found = (
        AuditEntry.objects.filter(action=AuditAction.MATCH_REMIND, details__match__in=match_ids)
        .values("details__match")
        .annotate(last=Max("created"))
    )
    return {int(row["details__match"]): row["last"] for row in found}


def _disputed(match_ids: list[int]) -> set[int]:
    games = ReportedGame.objects.filter(match_id__in=match_ids, state=ResultState.DISPUTED)
    tables = TableResult.objects.filter(match_id__in=match_ids, state=TableResultState.DISPUTED)
    return set(games.values_list("match_id", flat=True)) | set(
        tables.values_list("match_id", flat=True)
    )


def _standing(match: Match, deadline: dt.datetime | None, disputed: bool, now) -> str:
    if match.status in FINAL_MATCH_STATUSES:
        return Standing.PLAYED
    if disputed:
        return Standing.DISPUTED
    if deadline is not None and deadline < now:
        return Standing.OVERDUE
    return Standing.WAITING


def _row(match: Match, *, disputed: bool, reminded_at, now, agreed_at=None) -> ConsoleRow:
    deadline = match.round.deadline
    return ConsoleRow(
        match=match,
        side_a=match.entry_a.name if match.entry_a else None,
        side_b=match.entry_b.name if match.entry_b else None,
        group=match.group,
        status=match.status,
        status_label=match.get_status_display(),
        standing=_standing(match, deadline, disputed, now),
        deadline=deadline,
        reminded_at=reminded_at,
        agreed_at=agreed_at,
    )


def round_console(round_: Round, *, now: dt.datetime | None = None) -> RoundConsole:
    """The round's matches (byes left out: nobody plays them) in group and bracket order."""
    now = now or timezone.now()
    matches = list(
        Match.objects.filter(round=round_, is_bye=False)
        .select_related("round", *sides_of("entry_a"), *sides_of("entry_b"))
        .select_related("entry_a__pair__player_a", "entry_a__pair__player_b")
        .select_related("entry_b__pair__player_a", "entry_b__pair__player_b")
        .order_by("group", "bracket_index", "pk")
    )
    ids = [m.pk for m in matches]
    disputed = _disputed(ids)
    reminded = last_reminders(ids)
    agreed = agreements_for(ids)
    rows = [
        _row(
            m,
            disputed=m.pk in disputed,
            reminded_at=reminded.get(m.pk),
            now=now,
            agreed_at=agreed[m.pk].starts_at if m.pk in agreed else None,
        )
        for m in matches
    ]
    counts = {standing: 0 for standing in Standing.ALL}
    for row in rows:
        counts[row.standing] += 1
    return RoundConsole(round=round_, rows=rows, counts=counts)


def console_row(match: Match) -> ConsoleRow:
    """One match's row (after a reminder, for its answer)."""
    match = (
        Match.objects.select_related("round", *sides_of("entry_a"), *sides_of("entry_b"))
        .select_related("entry_a__pair__player_a", "entry_a__pair__player_b")
        .select_related("entry_b__pair__player_a", "entry_b__pair__player_b")
        .get(pk=match.pk)
    )
    return _row(
        match,
        disputed=match.pk in _disputed([match.pk]),
        reminded_at=last_reminders([match.pk]).get(match.pk),
        now=timezone.now(),
        agreed_at=getattr(agreements_for([match.pk]).get(match.pk), "starts_at", None),
    )
