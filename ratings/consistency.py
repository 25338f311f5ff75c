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
  for the monthly table, month). This is "start value plus the sum of the deltas", checked
  exactly rather than up to rounding. The monthly table restarts each month, and a revert of a
  month that is over is compensated within that month without moving the row (§11).
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

DUEL_TABLES = (RatingSystem.LOBBY, RatingSystem.MONTHLY)


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
        out.append(
            Breach(
                "rating_unexpected",
                f"game {game.id} moved ratings it does not count for: "
                + ", ".join(f"player {pid} in {system}" for system, pid in unexpected),
                {**ids, "players": sorted({pid for _, pid in unexpected})},
            )
        )
    if reverted or in_flight:
        return out
    missing = sorted(
        (system, pid) for system in tables for pid in game.players if (system, pid) not in made
    )
    if missing:
        out.append(
            Breach(
                "rating_missing",
                f"game {game.id} (valid) has not moved: "
                + ", ".join(f"player {pid} in {system}" for system, pid in missing),
                {**ids, "players": sorted({pid for _, pid in missing})},
            )
        )
    return out


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
    changes = (
        RatingChange.objects.order_by("player_id", "system", "id")
        .values_list(
            "id",
            "player_id",
            "system",
            "reason",
            "period",
            "before",
            "after",
            "delta",
            "games_delta",
        )
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


def _walk(pid: int, system: str, history: Iterable[tuple], row: _Standing | None) -> list[Breach]:
    """Replay one player's changes in one table as the services write them (see the module)."""
    out = []
    start = start_value(system)
    monthly = system == RatingSystem.MONTHLY
    current: _Standing | None = None
    month_end: dict[str, float] = {}  # monthly: where each month's history stands
    for change_id, _, _, reason, period, before, after, delta, games_delta in history:
        ids = {"player": pid, "system": system, "change": change_id}
        if delta != after - before:
            out.append(
                Breach(
                    "rating_change_delta",
                    f"change {change_id} ({system}, player {pid}) has delta {delta} but moves "
                    f"{before} to {after}",
                    ids,
                )
            )
        if (
            monthly
            and reason == ChangeReason.REVERT
            and (current is None or current.period != period)
        ):
            # A month that is over: compensated within its own history, the row stays.
            expected = month_end.get(period)
            if expected != before:
                out.append(_broken(change_id, pid, system, before, expected))
            month_end[period] = after
            continue
        if current is None or (
            monthly
            and reason in (ChangeReason.GAME, ChangeReason.ADJUSTMENT)
            and current.period != period
        ):
            # A first change, or the first game or adjustment of a new month: from the start.
            expected, games = start, 0
        else:
            expected, games = current.value, current.games
        if expected != before:
            out.append(_broken(change_id, pid, system, before, expected))
        current = _Standing(after, max(0, games + games_delta), period)
        month_end[period] = after
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


def recompute_breaches() -> list[Breach]:
    """Stored ratings against a replay of every valid, not reverted game in game order.

    The replay is the recompute's own (``ratings.services``' reading and replay functions, the
    part of ``ratings_recompute`` before it stores anything): nothing is written. Adjustments
    are not part of a replay, so a player adjusted by hand differs by design; a game applied
    after later games (delivered late) also makes a difference until ``recompute_ratings``.
    """
    from ratings.services.changes import _reverted_game_ids
    from ratings.services.recompute import _duel_rows, _recompute_doubles, _recompute_duels

    try:
        with transaction.atomic():  # a savepoint: a failed read leaves the snapshot usable
            reverted = _reverted_game_ids()
            finals = {
                system: final
                for system, (final, _) in _recompute_duels(
                    _duel_rows(20_000), list(RECOMPUTED_TABLES[:3]), reverted
                ).items()
            }
            finals[RatingSystem.DOUBLES] = _recompute_doubles(reverted)[0]
    except (DatabaseError, ValueError, OverflowError) as exc:
        return [
            Breach(
                "recompute_failed",
                f"the ratings cannot be replayed from the game history: {exc}",
                {},
            )
        ]
    out = []
    for system in RECOMPUTED_TABLES:
        final = finals[system]
        stored = {
            pid: _Standing(value, games, period)
            for pid, value, games, period in Rating.objects.filter(system=system).values_list(
                "player_id", "value", "games", "period"
            )
        }
        for pid in sorted(final.keys() | stored.keys()):
            old = stored.get(pid)
            new = final.get(pid)
            replayed = (
                _Standing(new.value, new.games, new.period)
                if new is not None
                else _Standing(start_value(system), 0, old.period if old else "")
            )
            if old == replayed:
                continue
            have = f"{old.value} ({old.games} games)" if old else "no rating"
            out.append(
                Breach(
                    "recompute_differs",
                    f"player {pid}'s {system} rating is {have}; a replay of the games gives "
                    f"{replayed.value} ({replayed.games} games)",
                    {"player": pid, "system": system},
                )
            )
    return out
