"""The game-by-game tables (lobby, monthly, doubles, Master) as timelines in game order.

Every game, adjustment and reverted event of a table has a place, ``(played time, kind, id)``,
and per player one *current* stored step (a ``RatingChange`` row with ``at`` set and no
``replaced_by``). Inserting an event (a game arriving late, an adjustment) or voiding one (a
revert) replays the table forward from that place with ``ratings.systems.replay``, the loop the
recompute uses as well, and stores every step that differs as a new version of its event
(reason ``replay``, or ``revert`` for the event being voided), superseding the old version:
rows are only ever inserted. The Rating rows of the players moved are set to where their
timeline now ends. The caller holds the table's lock.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from django.db import connection
from django.db.models import BigIntegerField, F, Func, QuerySet
from django.db.models.functions import Coalesce

from ratings import params as rating_params
from ratings.models import ChangeReason, RatingChange, RatingSystem
from ratings.selectors import game_period
from ratings.services.stored import STORED_ROW_FIELDS, StoredEvent, StoredRow, grouped_events
from ratings.services.versions import Outcome, Writer
from ratings.systems import Duel
from ratings.systems.replay import ADJUSTMENT, GAME, Event, Standing, Step, replay


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the replay needs of a game: its place and its result, seat by seat."""

    id: int
    played_at: dt.datetime
    winner_seat: int | None
    robot: bool
    seats: tuple[tuple[int, int], ...]  # (player, score) by seat
    valid: bool = True
    context: str = ""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An adjustment's first row: who, when, by how much (its intent, replayed as it is)."""

    id: int
    player_id: int
    at: dt.datetime
    delta: float
    target: float | None = None  # a new adjustment made "to a value"


def current_rows(system: str) -> QuerySet[RatingChange]:
    """The table's timeline: the current version of every event's step, per player."""
    return RatingChange.objects.filter(system=system, at__isnull=False, replaced_by__isnull=True)


def _ordered(rows: QuerySet[RatingChange]) -> QuerySet[RatingChange]:
    return rows.order_by(
        "at", F("game_id").asc(nulls_last=True), Coalesce("origin_id", "id"), "player_id"
    )


class _EpochMicros(Func):
    """A timestamp as whole microseconds since 1970, exactly (PostgreSQL's ``EXTRACT`` returns
    a numeric): streaming a table, psycopg loads an integer for next to nothing, where Django's
    ``timestamptz`` loader (pure Python, with a regular expression) costs a few microseconds a
    value, a fifth of the recompute's reading."""

    template = "(EXTRACT(EPOCH FROM %(expressions)s) * 1000000)::bigint"
    output_field = BigIntegerField()
    # psycopg loads a bigint as an int already: without this Django would call int() on every
    # value, and a converter makes it pass every row through a generator of its own.
    convert_value = staticmethod(Func._convert_value_noop)


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def streamed_instant(rows: QuerySet, field: str) -> tuple[QuerySet, str, Callable]:
    """``rows`` with ``field`` (a timestamp) selectable cheaply as ``{field}_micros``, and the
    function turning what is selected back into the very datetime Django would load (UTC)."""
    name = f"{field}_micros"
    if connection.vendor != "postgresql":  # `make run` on SQLite: the datetime as it is
        return rows.annotate(**{name: F(field)}), name, _same
    return rows.annotate(**{name: _EpochMicros(field)}), name, _from_micros


def _same(value: dt.datetime) -> dt.datetime:
    return value


def _from_micros(micros: int) -> dt.datetime:
    return _EPOCH + dt.timedelta(microseconds=micros)


def fetched(
    rows: QuerySet, chunk_size: int, before_fetch: Callable[[], None] | None = None
) -> Iterator:
    """``rows.iterator(chunk_size)``, calling ``before_fetch`` before each chunk is fetched
    (Django fetches exactly ``chunk_size`` rows at a time): a COPY the replay keeps open on the
    connection ends there (``Writer.pause``)."""
    streamed = rows.iterator(chunk_size=chunk_size)
    if before_fetch is None:
        yield from streamed
        return
    while True:
        before_fetch()
        chunk = list(islice(streamed, chunk_size))
        yield from chunk
        if len(chunk) < chunk_size:
            return


def timeline_rows(
    system: str,
    *,
    since: dt.datetime | None = None,
    chunk_size: int = 20_000,
    before_fetch: Callable[[], None] | None = None,
) -> Iterator[StoredRow]:
    """The table's current rows in game order (from ``since`` on), streamed."""
    rows = current_rows(system)
    if since is not None:
        rows = rows.filter(at__gte=since)
    rows, _, instant = streamed_instant(rows, "at")
    make = StoredRow._make
    last_micros, last_at = None, None  # a game's rows come together, at one instant
    for values in fetched(_ordered(rows).values_list(*STORED_ROW_FIELDS), chunk_size, before_fetch):
        micros = values[3]
        if micros != last_micros:
            last_micros, last_at = micros, instant(micros)
        yield make((*values[:3], last_at, *values[4:]))


def reverted_origins(system: str) -> set[int]:
    """First versions that were reverted: their events stay in place and move nothing."""
    return set(
        RatingChange.objects.filter(system=system, reason=ChangeReason.REVERT).values_list(
            "reverts_id", flat=True
        )
    )


def adjustments(system: str, *, since: dt.datetime | None = None) -> dict[int, Adjustment]:
    rows = RatingChange.objects.filter(
        system=system, reason=ChangeReason.ADJUSTMENT, at__isnull=False
    )
    if since is not None:
        rows = rows.filter(at__gte=since)
    return {
        pk: Adjustment(pk, pid, at, delta)
        for pk, pid, at, delta in rows.values_list("id", "player_id", "at", "delta")
    }


def game_event(system: str, game: GameFacts, *, stored: dict[int, Step] | None = None) -> Event:
    """A game as an event of ``system``'s timeline."""
    period = game_period(game.played_at) if system == RatingSystem.MONTHLY else ""
    if system == RatingSystem.DOUBLES:
        return Event(
            key=(game.played_at, GAME, game.id),
            players=tuple(p for p, _ in game.seats),
            seats=game.seats,
            winner_seat=game.winner_seat,
            robot=game.robot,
            stored=stored,
            ref=game,
        )
    (p0, s0), (p1, s1) = game.seats
    return Event(
        key=(game.played_at, GAME, game.id),
        players=(p0, p1),
        period=period,
        duel=Duel.of(p0, s0, p1, s1, game.winner_seat, game.robot),
        stored=stored,
        ref=game,
    )


def adjustment_event(
    system: str, adjustment: Adjustment, *, stored: dict[int, Step] | None = None
) -> Event:
    period = game_period(adjustment.at) if system == RatingSystem.MONTHLY else ""
    return Event(
        key=(adjustment.at, ADJUSTMENT, adjustment.id),
        players=(adjustment.player_id,),
        period=period,
        delta=adjustment.delta,
        target=adjustment.target if stored is None else None,
        stored=stored,
        ref=adjustment,
    )


def merge_events(
    system: str,
    games: Iterable[GameFacts],
    rows: Iterable[StoredRow],
    adjustments_by_id: dict[int, Adjustment],
    *,
    void: set[int],
    counts: Callable[[GameFacts], bool] | None = None,
) -> Iterator[Event]:
    """Events in game order from three sorted sources: the games that count in the table (or
    that have stored rows), the stored rows, and the adjustments. An event with stored rows is
    void when its first version was reverted; ``counts(game)`` says whether a game without
    stored rows enters the table (the Master ranking's titles)."""
    stored_iter = ((s.key, 1, s) for s in grouped_events(rows))
    game_iter = (((g.played_at, GAME, g.id), 0, g) for g in games)
    adjust_iter = (
        ((a.at, ADJUSTMENT, a.id), 0, a)
        for a in sorted(adjustments_by_id.values(), key=lambda a: (a.at, a.id))
    )
    merged = heapq.merge(game_iter, adjust_iter, stored_iter, key=_merge_order)
    pending: tuple | None = None  # (key, source) waiting for its stored rows
    for key, is_stored, item in merged:
        if is_stored:
            stored: StoredEvent = item
            if pending is not None and pending[0] == key:
                yield _event(system, pending[1], stored, void)
                pending = None
                continue
            if pending is not None:
                fresh = _fresh(system, pending[1], counts)
                if fresh is not None:
                    yield fresh
                pending = None
            yield _orphan(stored)
            continue
        if pending is not None:
            fresh = _fresh(system, pending[1], counts)
            if fresh is not None:
                yield fresh
        pending = (key, item)
    if pending is not None:
        fresh = _fresh(system, pending[1], counts)
        if fresh is not None:
            yield fresh


# Place, then a game's or adjustment's source before its stored rows.
_merge_order = itemgetter(0, 1)


def _is_void(stored: StoredEvent, void: set[int]) -> bool:
    return bool(void) and any(row.origin in void for row in stored.rows.values())


def _event(system: str, source: object, stored: StoredEvent, void: set[int]) -> Event:
    if isinstance(source, GameFacts):
        event = game_event(system, source, stored=stored.steps)
    else:
        event = adjustment_event(system, source, stored=stored.steps)
    event.void = _is_void(stored, void)
    event.ref = (source, stored)
    if any(row.games_after is None for row in stored.rows.values()):
        event.changed = True  # a row from before the timeline: computed again
    return event


def _fresh(system: str, source: object, counts: Callable[[GameFacts], bool] | None) -> Event | None:
    if isinstance(source, GameFacts):
        if counts is not None and not counts(source):
            return None
        event = game_event(system, source)
    else:
        event = adjustment_event(system, source)
    event.ref = (source, None)
    return event


def _orphan(stored: StoredEvent) -> Event:
    """Stored rows whose game or adjustment the sources did not list: a game without seats any
    more, say. They stay in place and move nothing."""
    row = next(iter(stored.rows.values()))
    return Event(
        key=stored.key,
        players=tuple(stored.rows),
        period=row.period,
        void=True,
        changed=True,
        stored=stored.steps,
        ref=(None, stored),
    )


def standings_before(
    system: str, player_ids: Iterable[int], at: dt.datetime
) -> dict[int, Standing]:
    """Each player's standing just before ``at``: their last current row strictly earlier (rows
    at the same instant are in the replay's window)."""
    ids = list(set(player_ids))
    if not ids:
        return {}
    rows = (
        current_rows(system)
        .filter(player_id__in=ids, at__lt=at)
        .order_by(
            "player_id",
            "-at",
            F("game_id").desc(nulls_first=True),
            Coalesce("origin_id", "id").desc(),
        )
        .values_list("player_id", "after", "games_after", "period")
    )
    if connection.vendor == "postgresql":
        rows = rows.distinct("player_id")
    # Without DISTINCT ON (SQLite, `make run`) the first row of each player is their latest.
    standings: dict[int, Standing] = {}
    for pid, after, games, period in rows:
        standings.setdefault(pid, Standing(after, games or 0, period))
    return standings


def replay_from(
    system: str,
    *,
    since: Sequence[tuple],
    new_games: Sequence[GameFacts] = (),
    new_adjustments: Sequence[Adjustment] = (),
    voiding: set[int] = frozenset(),
    rewritten: set[int] = frozenset(),
    load_games: Callable[[Sequence[int]], Iterable[GameFacts]],
    writer: Writer,
) -> Outcome:
    """Insert new events and void others, replaying the table forward from the earliest place
    any of them takes. ``load_games(ids)`` returns ``GameFacts`` for the stored games.

    ``rewritten`` names stored games whose result changed (a new ruling): they keep their place
    and are computed again from their new result, as is everything after them that it moves."""
    start = min(since)
    at = start[0]
    rows = list(timeline_rows(system, since=at))
    stored_games = sorted({r.game_id for r in rows if r.game_id is not None})
    facts = {g.id: g for g in load_games(stored_games)}
    facts.update({g.id: g for g in new_games})
    games = sorted(facts.values(), key=lambda g: (g.played_at, g.id))
    # Adjustments of the window: only read when some are there (the common in-order case has
    # no stored event after the new games at all).
    adjust = adjustments(system, since=at) if any(r.game_id is None for r in rows) else {}
    adjust.update({a.id: a for a in new_adjustments})
    void = {r.origin for r in rows if r.reason == ChangeReason.REVERT} | reverted_in(rows)
    void |= set(voiding)
    new_ids = {g.id for g in new_games}
    newcomers = {p for g in new_games for p, _ in g.seats} | {a.player_id for a in new_adjustments}
    known = standings_before(system, newcomers, at)
    events = merge_events(
        system,
        games,
        rows,
        adjust,
        void=void,
        counts=lambda g: g.id in new_ids,
    )
    params = rating_params.table_params(system)
    for replayed in replay(
        (_marked(e, set(voiding), set(rewritten)) for e in events),
        params,
        known=known,
        monthly=system == RatingSystem.MONTHLY,
    ):
        writer.take(replayed)
    return writer.store(known)


def reverted_in(rows: Sequence[StoredRow]) -> set[int]:
    """Of these rows' events, the first versions that were reverted (one query)."""
    origins = {r.origin for r in rows}
    if not origins:
        return set()
    return set(
        RatingChange.objects.filter(
            reason=ChangeReason.REVERT, reverts_id__in=list(origins)
        ).values_list("reverts_id", flat=True)
    )


def _origins(event: Event) -> set[int]:
    _, stored = event.ref
    return {row.origin for row in stored.rows.values()} if stored else set()


def _marked(event: Event, voiding: set[int], rewritten: set[int]) -> Event:
    """A stored event being voided now, or a stored game whose result was rewritten, is
    computed again rather than trusted."""
    if not event.stored:
        return event
    if voiding and voiding & _origins(event):
        event.changed = True
        event.void = True
    elif rewritten and event.is_game and event.key[2] in rewritten:
        event.changed = True
    return event
