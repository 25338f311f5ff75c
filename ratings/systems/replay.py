"""Replaying a game-by-game table in game order: the one loop the live ratings and the recompute
share, so that they cannot drift apart.

A table's history is a timeline of events in game order, each at its place ``key`` (played time,
then kind, then id): games, manual adjustments, and events that no longer count (a reverted game
or adjustment, kept in place as an event that moves nothing). The live system stores, per event
and player, the step the event made (before, after, games count after). When a game arrives after
later games of its players, or an event is reverted, the table is replayed from that place: every
later event that one of the *moved* players (those whose standing now differs from the stored
timeline) takes part in is computed again, and the players it touches join the moved set when
their result differs. Events no moved player takes part in keep their stored steps. The recompute
runs the same loop over the whole history without trusting anything stored.

Pure Python: the Django side turns rows into ``Event`` objects and writes what ``replay`` yields.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .duels import Duel, doubles_move, duel_move
from .lobby import LobbyParams

__all__ = ["GAME", "ADJUSTMENT", "Event", "Replayed", "Standing", "Step", "replay"]

GAME = 0
ADJUSTMENT = 1  # at the same instant a game comes first

Key = tuple[dt.datetime, int, int]  # (at, kind, game id or the adjustment's first row id)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in the table at a point of the timeline."""

    value: float
    games: int
    period: str = ""  # the monthly table's "YYYY-MM"; "" elsewhere


@dataclass(frozen=True, slots=True)
class Step:
    """What one event did to one player: the stored row's figures."""

    before: float
    after: float
    games_before: int
    games_after: int

    @property
    def counts(self) -> bool:
        return self.games_after != self.games_before


@dataclass(slots=True)
class Event:
    """One event of a table's timeline.

    A game is a ``duel`` (lobby, monthly, Master) or ``seats`` (doubles: (player, score) by seat,
    with ``winner_seat``); an adjustment moves ``players[0]`` by ``delta`` or, when first made to
    a value, to ``target``. ``void`` events (reverted) stay in place and move nothing. ``stored``
    is the current stored step per player (absent for an event not in the timeline yet).
    """

    key: Key
    players: tuple[int, ...]
    period: str = ""
    void: bool = False
    duel: Duel | None = None
    seats: tuple[tuple[int, int], ...] | None = None
    winner_seat: int | None = None
    robot: bool = False
    delta: float = 0.0
    target: float | None = None
    stored: dict[int, Step] | None = None
    changed: bool = False  # stored, but no longer what it was (newly voided): compute it again
    ref: object = None  # the caller's handle (rows, game id), passed through untouched

    @property
    def is_game(self) -> bool:
        return self.key[1] == GAME


@dataclass(slots=True)
class Replayed:
    """One event after the replay: its steps, and whether they differ from the stored ones.

    ``steps`` is None when the event was not computed again (no moved player takes part: its
    stored steps stand)."""

    event: Event
    steps: dict[int, Step] | None
    differs: bool = False


@dataclass
class _State:
    known: dict[int, Standing]
    moved: set[int] = field(default_factory=set)


def _brought(
    state: _State, pid: int, event: Event, params: LobbyParams, trust_stored: bool, monthly: bool
) -> Standing:
    standing = state.known.get(pid)
    if standing is None:
        stored = event.stored.get(pid) if event.stored else None
        if trust_stored and stored is not None:
            # Not moved so far: what the stored step started from is still true.
            return Standing(stored.before, stored.games_before, event.period)
        return Standing(params.start, 0, event.period)
    if monthly and standing.period != event.period:
        return Standing(params.start, 0, event.period)  # a new month starts afresh
    return standing


def _clamp(value: float, params: LobbyParams) -> float:
    return min(params.ceiling, max(params.floor, value))


def _compute(event: Event, brought: dict[int, Standing], params: LobbyParams) -> dict[int, Step]:
    if event.void:
        return {p: Step(b.value, b.value, b.games, b.games) for p, b in brought.items()}
    if not event.is_game:
        (pid,) = event.players
        before = brought[pid]
        after = event.target if event.target is not None else before.value + event.delta
        return {pid: Step(before.value, _clamp(after, params), before.games, before.games)}
    value = brought.__getitem__
    if event.duel is not None:
        after = duel_move(event.duel, lambda p: value(p).value, params)
    else:
        after = doubles_move(
            event.seats, event.winner_seat, event.robot, lambda p: value(p).value, params
        )
    return {
        p: Step(brought[p].value, after[p], brought[p].games, brought[p].games + 1)
        for p in event.players
    }


def replay(
    events: Iterable[Event],
    params: LobbyParams,
    *,
    known: dict[int, Standing],
    monthly: bool = False,
    trust_stored: bool = True,
    moved: Iterable[int] = (),
) -> Iterator[Replayed]:
    """Replay ``events`` (in key order) from the standings in ``known`` (updated as it goes).

    ``trust_stored`` (the live system): an event none of whose players is moved, that is in the
    timeline already (``Event.stored`` given) and not ``changed``, keeps its stored steps; a
    player met for the first time starts from their stored step. Without it (the recompute) every
    event is computed and a player met for the first time starts at the table's start. ``moved``
    names players already known to differ from the stored timeline.
    """
    state = _State(known=known, moved=set(moved))
    for event in events:
        stored = event.stored
        if (
            trust_stored
            and stored is not None
            and not event.changed
            and len(stored) == len(event.players)
            and not state.moved.intersection(event.players)
        ):
            for pid, step in stored.items():
                state.known[pid] = Standing(step.after, step.games_after, event.period)
            yield Replayed(event, None)
            continue
        brought = {
            p: _brought(state, p, event, params, trust_stored, monthly) for p in event.players
        }
        steps = _compute(event, brought, params)
        differs = stored is None or any(stored.get(p) != s for p, s in steps.items())
        for pid, step in steps.items():
            state.known[pid] = Standing(step.after, step.games_after, event.period)
            old = stored.get(pid) if stored else None
            if old is None or (old.after, old.games_after) != (step.after, step.games_after):
                state.moved.add(pid)
            else:
                state.moved.discard(pid)
        yield Replayed(event, steps, differs)
