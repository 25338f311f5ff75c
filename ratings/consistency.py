"""Reads that check the ratings' invariants on a whole database (``manage.py check_consistency``).

What the ratings promise (docs/ratings.md §9-§11):

- **Exactly once.** A valid, not reverted game has one ``game`` change per seated player in
  every table it counts in, and none in any other: a two-player game in the lobby and monthly
  tables, and in the Master ranking when played in a Master context or between two players who
  both held the title at the time; a pairs game in the doubles table; a free-for-all game
  nowhere. A game still on the ``PendingRating`` work list, or adjudicated within the ratings'
  recovery window (the sweep's period plus the scheduling key's lifetime plus the records'
  stale window), is *in flight*, not missing; a work-list entry older than that window is
  stuck.
- **A rating is its history.** Within a player's table every change starts where the previous
  one left the rating (the first at the table's start value), its ``delta`` is ``after -
  before``, and the ``Rating`` row holds where the last change left it (value, games count and,
  for the monthly table, month). In the game-by-game tables this is read along the timeline
  (each event's current version, in game order; a new month starts afresh), in the Elo in the
  order the changes were written; checked exactly rather than up to rounding.
- Optionally (``recompute_breaches``), the stored lobby, monthly, Master and doubles ratings
  equal a replay of the game history with the pure maths (the recompute's own reading and
  replay, which write nothing). The tournament Elo has no such dry run: its recompute rewrites
  the standings as it goes, so it is left out.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.consistency import Breach, chunks, readable_played_at
from games.models import Game, GameSeat, RecordStatus
from ratings.models import (
    ChangeReason,
    PendingRating,
    Rating,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
    Title,
)
from ratings.services import start_value
from ratings.services.recompute import ratings_to_set, table_replay
from ratings.services.versions import Writer

DUEL_TABLES = (RatingSystem.LOBBY, RatingSystem.MONTHLY)
TIMELINE_TABLES = (
    RatingSystem.LOBBY,
    RatingSystem.MONTHLY,
    RatingSystem.DOUBLES,
    RatingSystem.MASTER,
)


def _sweep_seconds() -> float:
    schedule = settings.CELERY_BEAT_SCHEDULE.get("ratings-sweep-unrated-games", {})
    return float(schedule.get("schedule", 300.0))


def ratings_counts() -> dict[str, int]:
    return {
        "rating changes": RatingChange.objects.count(),
        "ratings": Rating.objects.count(),
        "games waiting for ratings": PendingRating.objects.count(),
    }


def ratings_breaches(*, now: dt.datetime | None = None) -> list[Breach]:
    now = now or timezone.now()
    return _stuck_pending(now) + _games_rated_once(now) + _chains()


# --- Exactly once --------------------------------------------------------------------------


def _stuck_pending(now: dt.datetime) -> list[Breach]:
    window = _window()
    before = now - dt.timedelta(seconds=window)
    return [
        Breach(
            "rating_pending_stuck",
            f"game {game_id} has waited {(now - created).total_seconds():.0f} s on the ratings' "
            f"work list (the sweep applies it within {window:.0f} s)",
            {"game": game_id},
        )
        for game_id, created in PendingRating.objects.filter(created__lt=before)
        .order_by("game_id")
        .values_list("game_id", "created")
    ]


def _window() -> float:
    """How long an announced or adjudicated game may wait for its ratings before it is stuck:
    the sweep's period, plus the scheduling key's lifetime, plus the records' stale window."""
    return (
        _sweep_seconds()
        + settings.RATINGS_APPLY_SCHEDULE_SECONDS
        + settings.GAME_RECORD_STALE_SECONDS
    )


@dataclass(frozen=True)
class _GameRow:
    id: int
    players_count: int
    is_pairs: bool
    context: str
    played_at: dt.datetime
    created: dt.datetime
    valid: bool
    players: tuple[int, ...]


def _title_intervals() -> dict[int, list[tuple[dt.datetime, dt.datetime | None]]]:
    held: dict[int, list[tuple[dt.datetime, dt.datetime | None]]] = defaultdict(list)
    for pid, start, end in Title.objects.filter(kind=Title.Kind.MASTER).values_list(
        "player_id", "awarded_at", "ended_at"
    ):
        held[pid].append((start, end))
    return held


def _held(intervals: Iterable, when: dt.datetime) -> bool:
    return any(start <= when and (end is None or end > when) for start, end in intervals)


def expected_tables(game: _GameRow, titles: dict) -> set[str]:
    """The tables a game counts in (docs/ratings.md §10, step 3)."""
    if not game.valid:
        return set()
    if game.players_count == 2 and not game.is_pairs and len(game.players) == 2:
        tables = set(DUEL_TABLES)
        if game.context == "master" or all(
            _held(titles.get(pid, ()), game.played_at) for pid in game.players
        ):
            tables.add(RatingSystem.MASTER)
        return tables
    if game.is_pairs and len(game.players) == 4:
        return {RatingSystem.DOUBLES}
    return set()


def _games_rated_once(now: dt.datetime) -> list[Breach]:
    titles = _title_intervals()
    grace = now - dt.timedelta(seconds=_window())
    out: list[Breach] = []
    # A game whose played time cannot be read is reported by the games' checks.
    games = Game.objects.filter(readable_played_at()).values(
        "id", "players_count", "is_pairs", "context", "played_at", "created", "record__status"
    )
    for rows in chunks(games):
        ids = [row["id"] for row in rows]
        players: dict[int, list[int]] = defaultdict(list)
        for game_id, player_id in (
            GameSeat.objects.filter(game_id__in=ids)
            .order_by("game_id", "seat")
            .values_list("game_id", "player_id")
        ):
            players[game_id].append(player_id)
        made: dict[int, Counter] = defaultdict(Counter)
        for game_id, system, player_id in RatingChange.objects.filter(
            game_id__in=ids, reason=ChangeReason.GAME
        ).values_list("game_id", "system", "player_id"):
            made[game_id][(system, player_id)] += 1
        reverted = set(
            RatingChange.objects.filter(
                reason=ChangeReason.REVERT,
                reverts__reason=ChangeReason.GAME,
                reverts__game_id__in=ids,
            ).values_list("reverts__game_id", flat=True)
        )
        pending = set(PendingRating.objects.filter(game_id__in=ids).values_list("pk", flat=True))
        flagged = set(
            Review.objects.filter(kind=ReviewKind.GAME_INVALIDATED, game_id__in=ids).values_list(
                "game_id", flat=True
            )
        )
        for row in rows:
            game = _GameRow(
                id=row["id"],
                players_count=row["players_count"],
                is_pairs=row["is_pairs"],
                context=row["context"],
                played_at=row["played_at"],
                created=row["created"],
                valid=row["record__status"] == RecordStatus.VALID,
                players=tuple(players.get(row["id"], ())),
            )
            out += _game_rated_once(
                game,
                expected_tables(game, titles),
                made.get(game.id, Counter()),
                reverted=game.id in reverted,
                in_flight=game.id in pending or game.created >= grace,
                flagged=game.id in flagged,
            )
    return out


def _game_rated_once(
    game: _GameRow,
    tables: set[str],
    made: Counter,
    *,
    reverted: bool,
    in_flight: bool,
    flagged: bool,
) -> list[Breach]:
    out = []
    ids = {"game": game.id}
    for (system, pid), count in sorted(made.items()):
        if count > 1:
            out.append(
                Breach(
                    "rating_duplicated",
                    f"game {game.id} moved player {pid}'s {system} rating {count} times",
                    {**ids, "player": pid, "system": system},
                )
            )
    if not game.valid:
        if made and not reverted and not flagged:
            out.append(
                Breach(
                    "rated_game_not_valid",
                    f"game {game.id} moved ratings ({_tables_text(made)}) but its record is not "
                    "valid, and it is neither reverted nor flagged for review",
                    ids,
                )
            )
        return out
    unexpected = sorted(
        (system, pid) for system, pid in made if system not in tables or pid not in game.players
    )
    if unexpected:
        what = f"game {game.id} moved ratings it does not count for"
        out.append(_seats_breach("rating_unexpected", what, unexpected, ids))
    if reverted or in_flight:
        return out
    missing = sorted(
        (system, pid) for system in tables for pid in game.players if (system, pid) not in made
    )
    if missing:
        out.append(
            _seats_breach("rating_missing", f"game {game.id} (valid) has not moved", missing, ids)
        )
    return out


def _seats_breach(
    code: str, what: str, ratings: list[tuple[str, int]], ids: dict[str, int]
) -> Breach:
    """A breach naming each (table, player) rating it is about after ``what``."""
    return Breach(
        code,
        f"{what}: " + ", ".join(f"player {pid} in {system}" for system, pid in ratings),
        {**ids, "players": sorted({pid for _, pid in ratings})},
    )


def _tables_text(made: Counter) -> str:
    return ", ".join(sorted({system for system, _ in made}))


# --- A rating is its history ---------------------------------------------------------------


@dataclass
class _Standing:
    value: float
    games: int
    period: str


def _chains() -> list[Breach]:
    stored = {
        (pid, system): _Standing(value, games, period)
        for pid, system, value, games, period in Rating.objects.values_list(
            "player_id", "system", "value", "games", "period"
        )
    }
    out: list[Breach] = []
    seen: set[tuple[int, str]] = set()
    fields = ("id", "player_id", "system", "reason", "period", "before", "after", "delta")
    # The game-by-game tables: the timeline, each event's current version, in game order.
    timeline = (
        RatingChange.objects.filter(
            system__in=TIMELINE_TABLES, at__isnull=False, replaced_by__isnull=True
        )
        .order_by(
            "player_id",
            "system",
            "at",
            F("game_id").asc(nulls_last=True),
            Coalesce("origin_id", "id"),
        )
        .values_list(*fields, "games_after", "games_delta")
        .iterator(chunk_size=5000)
    )
    for (pid, system), history in groupby(timeline, key=lambda c: (c[1], c[2])):
        seen.add((pid, system))
        out += _walk_timeline(pid, system, history, stored.get((pid, system)))
    # The Elo: its changes in the order they were written.
    changes = (
        RatingChange.objects.filter(system=RatingSystem.ELO)
        .order_by("player_id", "system", "id")
        .values_list(*fields, "games_delta")
        .iterator(chunk_size=5000)
    )
    for (pid, system), history in groupby(changes, key=lambda c: (c[1], c[2])):
        seen.add((pid, system))
        out += _walk(pid, system, history, stored.get((pid, system)))
    for pid, system in sorted(stored.keys() - seen):
        out.append(
            Breach(
                "rating_without_history",
                f"player {pid} has a {system} rating of {stored[(pid, system)].value} but no "
                "change explains it",
                {"player": pid, "system": system},
            )
        )
    return out


def _walk_timeline(
    pid: int, system: str, history: Iterable[tuple], row: _Standing | None
) -> list[Breach]:
    """One player's timeline in one table: every step starts where the previous one ended
    (a new month from the start), in value and games count; the Rating row is its end."""
    out = []
    start = start_value(system)
    monthly = system == RatingSystem.MONTHLY
    current: _Standing | None = None
    for change_id, _, _, _, period, before, after, delta, games_after, games_delta in history:
        if delta != after - before:
            out.append(_bad_delta(change_id, pid, system, before, after, delta))
        if current is None or (monthly and current.period != period):
            expected = _Standing(start, 0, period)
        else:
            expected = current
        games_before = None if games_after is None else games_after - games_delta
        if (before, games_before) != (expected.value, expected.games):
            out.append(_broken(change_id, pid, system, before, expected.value))
        current = _Standing(after, games_after if games_after is not None else -1, period)
    out += _row_matches(pid, system, current, row)
    return out


def _walk(pid: int, system: str, history: Iterable[tuple], row: _Standing | None) -> list[Breach]:
    """The Elo: every change starts where the previous one (in the order written) left it."""
    out = []
    current: _Standing | None = None
    for change_id, _, _, _, period, before, after, delta, games_delta in history:
        if delta != after - before:
            out.append(_bad_delta(change_id, pid, system, before, after, delta))
        expected, games = (
            (start_value(system), 0) if current is None else (current.value, current.games)
        )
        if expected != before:
            out.append(_broken(change_id, pid, system, before, expected))
        current = _Standing(after, max(0, games + games_delta), period)
    return out + _row_matches(pid, system, current, row)


def _bad_delta(
    change_id: int, pid: int, system: str, before: float, after: float, delta: float
) -> Breach:
    return Breach(
        "rating_change_delta",
        f"change {change_id} ({system}, player {pid}) has delta {delta} but moves "
        f"{before} to {after}",
        {"player": pid, "system": system, "change": change_id},
    )


def _row_matches(
    pid: int, system: str, current: _Standing | None, row: _Standing | None
) -> list[Breach]:
    """The Rating row holds where the history ends."""
    out = []
    if current is None:
        return out
    if row is None:
        out.append(
            Breach(
                "rating_row_missing",
                f"player {pid} has {system} changes (the last leaves {current.value}) but no "
                "rating row",
                {"player": pid, "system": system},
            )
        )
    elif (row.value, row.games, row.period) != (current.value, current.games, current.period):
        out.append(
            Breach(
                "rating_value_differs",
                f"player {pid}'s {system} rating is {row.value} ({row.games} games"
                f"{', ' + row.period if row.period else ''}) but their changes leave "
                f"{current.value} ({current.games} games"
                f"{', ' + current.period if current.period else ''})",
                {"player": pid, "system": system},
            )
        )
    return out


def _broken(change_id: int, pid: int, system: str, before: float, expected: float | None) -> Breach:
    where = "nothing" if expected is None else f"{expected}"
    return Breach(
        "rating_chain_broken",
        f"change {change_id} ({system}, player {pid}) starts at {before}, but the history "
        f"before it leaves {where}",
        {"player": pid, "system": system, "change": change_id},
    )


# --- Against a replay of the history -----------------------------------------------------------

RECOMPUTED_TABLES = (
    RatingSystem.LOBBY,
    RatingSystem.MONTHLY,
    RatingSystem.MASTER,
    RatingSystem.DOUBLES,
)


class _DryRun:
    """A replay's writer that stores nothing: it counts the steps that differ, per player."""

    def __init__(self, system: str):
        self.system = system
        self.writer = Writer(system)
        self.differing: Counter = Counter()

    def take(self, replayed) -> None:
        self.writer.take(replayed)
        for change in self.writer.outcome.created + self.writer.outcome.versions:
            self.differing[change.player_id] += 1
        self.writer.outcome.created, self.writer.outcome.versions = [], []


def recompute_breaches() -> list[Breach]:
    """Stored ratings and steps against a replay of the whole history in game order.

    The replay is the recompute's own (``ratings.services.recompute.table_replay``, the part of
    ``ratings_recompute`` before it stores anything), with a writer that writes nothing. On a
    live database nothing differs: every step and every rating is what the replay computes.
    """
    out = []
    for system in RECOMPUTED_TABLES:
        dry = _DryRun(system)
        try:
            with transaction.atomic():  # a savepoint: a failed read leaves the snapshot usable
                known = table_replay(system, writer=dry)
                wrong = ratings_to_set(system, known, set(dry.differing))
        except (DatabaseError, ValueError, OverflowError) as exc:
            return [
                Breach(
                    "recompute_failed",
                    f"the ratings cannot be replayed from the game history: {exc}",
                    {},
                )
            ]
        for pid in sorted(wrong):
            replayed = wrong[pid]
            steps = dry.differing.get(pid, 0)
            out.append(
                Breach(
                    "recompute_differs",
                    f"player {pid}'s {system} history differs from a replay of it "
                    f"({steps} step{'s' if steps != 1 else ''}); the replay ends at "
                    f"{replayed.value} ({replayed.games} games)",
                    {"player": pid, "system": system},
                )
            )
    return out
