"""Reads that check the tournaments' invariants on a whole database (``manage.py
check_consistency``).

What the tournaments promise (DESIGN.md, "Tournament domain"; tournaments/services/, the
``match_*`` services, ``match_finish``, ``_feed_next`` and ``_crown`` in ``progression``):

- a decided match (decided, walkover, ruled) has a winner that is one of its two entries; a void
  or unfinished match has none;
- in a bracket, a finished match's winner sits on its side of the next match (or the slot is
  empty when that winner withdrew since), an unfinished match has put nobody there, and a next
  match whose feeders are both finished is no longer waiting;
- a match's TP totals and games count are those of its counted games (``MatchGame``, TPs after
  time penalties); a bye counts no game; a table open's match stands at its typed score sheet
  (one game, the sheet's TPs, no counted game), its winner is the sheet's (none for a drawn
  table), and a game lost by a drop-out is a walkover scored as a bye;
- a counted game shares 20 TPs, its TPs are its base TPs moved by its penalties, its seats carry
  the same TPs, it is a valid tournament game of the match's event between the match's players;
- a valid game submitted for a match is counted, or refused with a ``game_not_counted`` audit
  entry (older than the sweep's period; younger ones are in flight);
- a champion is set only on a finished event, is one of its entries, not withdrawn, holds the
  champion status, and in a knockout is the winner of the final.

One module per part: `matches` (winners, brackets, TP totals), `match_games` (counted and
submitted games), `champions`; this one runs them all, with the other apps' checks.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from games.consistency import Breach, games_breaches, games_counts
from ratings.consistency import ratings_breaches, ratings_counts, recompute_breaches
from tournaments.consistency.champions import champion_breaches
from tournaments.consistency.match_games import counted_game_breaches, uncounted_game_breaches
from tournaments.consistency.matches import (
    bracket_breaches,
    match_total_breaches,
    winner_breaches,
)
from tournaments.models import Event, Match, MatchGame


def tournaments_counts() -> dict[str, int]:
    return {
        "events": Event.objects.count(),
        "matches": Match.objects.count(),
        "counted games": MatchGame.objects.count(),
    }


def tournaments_breaches(*, now: dt.datetime | None = None) -> list[Breach]:
    now = now or timezone.now()
    return (
        winner_breaches()
        + bracket_breaches()
        + match_total_breaches()
        + counted_game_breaches()
        + uncounted_game_breaches(now)
        + champion_breaches()
    )


# --- The whole system --------------------------------------------------------------------------


@dataclass
class Report:
    breaches: list[Breach]
    counts: dict[str, int]
    checked_at: dt.datetime

    @property
    def consistent(self) -> bool:
        return not self.breaches

    def summary(self) -> str:
        counted = ", ".join(f"{n:,} {what}" for what, n in self.counts.items())
        if self.consistent:
            return f"consistent: {counted}"
        return f"{len(self.breaches):,} breach(es) of consistency; checked {counted}"

    def as_dict(self) -> dict:
        return {
            "consistent": self.consistent,
            "checked_at": self.checked_at.isoformat(),
            "counts": self.counts,
            "breaches": [b.as_dict() for b in self.breaches],
        }


def system_check(*, recompute: bool = False) -> Report:
    """Every app's checks, top to bottom, in one read-only snapshot of the database.

    On PostgreSQL the checks share one REPEATABLE READ, READ ONLY transaction, so the apps are
    compared as of one instant while workers go on writing, and nothing can be written by
    mistake. (Inside an outer transaction, as in tests, they run in that one.)
    """
    outermost = not connection.in_atomic_block
    if outermost:
        connection.ensure_connection()
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        now = timezone.now()
        breaches = (
            games_breaches(now=now) + ratings_breaches(now=now) + tournaments_breaches(now=now)
        )
        if recompute:
            breaches += recompute_breaches()
        counts = {**games_counts(now=now), **ratings_counts(), **tournaments_counts()}
    return Report(breaches=breaches, counts=counts, checked_at=now)
