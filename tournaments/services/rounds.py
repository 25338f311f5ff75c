"""Rows of rounds and matches, without consequences: a match's rules and final state, a
round's deadline.

Draws, Swiss rounds and progression all build on this module and it imports none of them:
closing a match's row is here, deciding what follows (advancing the winner, crowning a
champion, pairing the next Swiss round) is `progression`'s job.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import connection
from django.utils import timezone

from players.audit.transitions import transition
from tournaments import formats
from tournaments.models import Entry, EntryKind, Event, Match, Round

# pg_advisory_xact_lock(int, int): tournaments' namespace, then the event's id.
_PROGRESSION_LOCK_NAMESPACE = 7_000_101


def event_progression_lock(event_id: int) -> None:
    """Serialise, within one event, what follows the end of a match: whether the round or the
    group stage is over, and what comes next.

    Taken after the match is closed. The transaction that gets the lock second then reads (a new
    statement, READ COMMITTED) the first one's match as closed. Without it, two workers counting
    the last two matches of a round at once each saw the other's match still open, and neither
    finished the group stage nor paired the next Swiss round. SQLite serialises writers by
    itself; there this is a no-op.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("the progression lock is transaction-scoped: call inside atomic")
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)", [_PROGRESSION_LOCK_NAMESPACE, event_id]
        )


# A team round's lineups close this long after the round starts (organisers may move it).
LINEUP_AFTER_ROUND_START = dt.timedelta(days=1)


def lineup_deadlines_set(event: Event, rounds: list[Round]) -> None:
    """Team events: each new round's lineup deadline, a day after the round starts."""
    if event.entry_kind != EntryKind.TEAM:
        return
    changed = []
    for round_ in rounds:
        if round_.deadline is not None and round_.lineup_deadline is None:
            start = round_.deadline - dt.timedelta(days=event.round_days)
            round_.lineup_deadline = start + LINEUP_AFTER_ROUND_START
            changed.append(round_)
    Round.objects.bulk_update(changed, ["lineup_deadline"])


def match_rules(event: Event) -> formats.MatchRules:
    return formats.MatchRules(
        planned_games=event.games_per_match,
        extra_margin=Decimal(event.extra_game_margin),
        max_extra_games=event.max_extra_games,
    )


# A draw dated far away is a typing mistake, and round deadlines derived from it must stay
# representable.
DRAW_START_WINDOW = dt.timedelta(days=366)


def round_deadline(event: Event, start: dt.datetime, number: int) -> dt.datetime:
    return start + dt.timedelta(days=event.round_days * number)


def match_close(
    match: Match,
    *,
    winner: Entry | None,
    status: str,
    reason: str,
    audit: dict[str, Any] | None = None,
) -> None:
    """Write a match's final state (the row only; `progression.match_finish` also moves on),
    with the audit entry of the change that closes it, if it has one of its own."""
    transition(
        match,
        status,
        fields={"winner": winner, "state_reason": reason, "decided_at": timezone.now()},
        audit=audit,
    )
