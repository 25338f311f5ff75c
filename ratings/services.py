"""Writes for ratings: applying games, reverting, adjusting, recomputing, the Elo and titles.

Every write is one ``transaction.atomic`` block that first takes the PostgreSQL advisory lock of
each table it touches (``pg_advisory_xact_lock``, released at commit), always in the same order
so two writers cannot deadlock. Under the lock a table has one writer at a time: the ratings a
game is computed from are the latest committed ones, and "is this game already applied?" is
answered by committed data. The unique constraint ``rating_change_once_per_game_system`` backs
exactly-once in the database as well. Why advisory locks rather than row locks: a player's first
game has no Rating row to lock, and game order is a property of the whole table.

The maths is ``ratings.systems`` (pure); this module only feeds it rows and stores the results.
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import time
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, OperationalError, connection, transaction
from django.db.models import Count, Exists, FilteredRelation, Max, Min, OuterRef, Q, Sum
from django.utils import timezone

from games.models import Game, GameRecord, GameSeat, RecordStatus
from players.models import Player
from ratings import params as rating_params
from ratings.models import (
    PER_GAME_SYSTEMS,
    SCALED_SYSTEMS,
    AuditAction,
    AuditEntry,
    ChangeReason,
    EloEvent,
    EloStanding,
    PendingRating,
    Rating,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
    ReviewStatus,
    Title,
)
from ratings.systems import (
    EloRating,
    LobbyParams,
    anchor_shift,
    doubles_draw,
    doubles_update,
    elo_tournament,
    lobby_draw,
    lobby_update,
    monthly_rating,
    period_key,
    recompute_lobby,
    title_eligibility,
    title_lapse,
)
from ratings.systems.titles import BELOW_LOBBY, CAP_REACHED, NO_ELO_TOURNAMENT
from tantrix_site.errors import ServiceBusy

logger = logging.getLogger(__name__)

# --- Locks -------------------------------------------------------------------------------------

# pg_advisory_xact_lock(int, int): a namespace of our own, then one key per table (and titles).
_LOCK_NAMESPACE = 7_000_006
_LOCK_KEYS = {
    RatingSystem.LOBBY: 1,
    RatingSystem.MONTHLY: 2,
    RatingSystem.DOUBLES: 3,
    RatingSystem.MASTER: 4,
    RatingSystem.ELO: 5,
    "titles": 6,
}


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ran out


class RatingsBusy(OperationalError, ServiceBusy):
    """The rating tables' locks were not free in time. Tasks retry on OperationalError; views
    answer 503 (ServiceBusy)."""

    def __init__(self, message: str):
        ServiceBusy.__init__(self, message, retry_after=60)


def _lock(*names: str, wait_seconds: float | None = None) -> None:
    """Take the advisory locks of these tables for the current transaction, in a fixed order.

    Waits at most `wait_seconds` (default RATINGS_LOCK_WAIT_SECONDS), then raises
    OperationalError: an apply task behind a long recompute gives up and is retried later
    instead of holding a worker and a connection indefinitely. The transaction's own
    lock_timeout is restored afterwards, so row locks later in it are not affected.

    SQLite (the zero-setup local run, tasks eager, one process) has no advisory locks and no
    concurrent writers; there this is a no-op.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("rating locks are transaction-scoped: call inside transaction.atomic")
    if connection.vendor != "postgresql":
        return
    wait = settings.RATINGS_LOCK_WAIT_SECONDS if wait_seconds is None else wait_seconds
    keys = sorted({_LOCK_KEYS[name] for name in names})
    # One statement, one round trip: PostgreSQL evaluates the select list left to right, so the
    # previous timeout is read, ours set, and the locks taken one after the other in key order.
    sql = (
        "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true), "
        + ", ".join(["pg_advisory_xact_lock(%s, %s)"] * len(keys))
    )
    with connection.cursor() as cursor:
        try:
            cursor.execute(
                sql,
                [f"{max(1, round(wait * 1000))}ms"]
                + [arg for key in keys for arg in (_LOCK_NAMESPACE, key)],
            )
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                raise RatingsBusy(
                    "The ratings are being recalculated; try again in a minute."
                ) from exc
            raise
        previous = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [previous])


def _fault_injection_delay() -> None:
    delay = getattr(settings, "RATINGS_APPLY_DELAY_SECONDS", 0)
    if delay:
        time.sleep(delay)  # only the concurrency tests set this; 0 in production


# --- Small helpers -----------------------------------------------------------------------------


def _params_for(system: str) -> LobbyParams:
    return {
        RatingSystem.LOBBY: rating_params.lobby_params,
        RatingSystem.MONTHLY: rating_params.monthly_params,
        RatingSystem.DOUBLES: rating_params.doubles_params,
        RatingSystem.MASTER: rating_params.master_params,
    }[system]()


def start_value(system: str) -> float:
    """The rating a player has in a table before their first game there."""
    if system == RatingSystem.ELO:
        return rating_params.elo_params().initial
    return _params_for(system).start


def _clamp(system: str, value: float) -> float:
    if system in SCALED_SYSTEMS:
        return min(1000.0, max(0.0, value))
    return value


def game_period(played_at: dt.datetime) -> str:
    """The monthly table a game belongs to, by the site's time zone (settings.TIME_ZONE)."""
    return period_key(timezone.localtime(played_at) if timezone.is_aware(played_at) else played_at)


def current_period() -> str:
    return period_key(timezone.localdate())


def _actor(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _audit(
    *,
    actor: Any,
    action: str,
    reason: str = "",
    player_id: int | None = None,
    change: RatingChange | None = None,
    review: Review | None = None,
    title: Title | None = None,
    details: dict | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=_actor(actor),
        action=action,
        reason=reason,
        player_id=player_id,
        change=change,
        review=review,
        title=title,
        details=details or {},
    )


def _require_note(note: str, field_name: str = "note") -> str:
    note = (note or "").strip()
    if not note:
        raise ValidationError({field_name: "Say why: this is kept in the audit trail."})
    return note


def _reverted_game_ids() -> set[int]:
    """Games whose game-caused changes were reverted: they no longer count in any table."""
    return set(
        RatingChange.objects.filter(
            reason=ChangeReason.REVERT, reverts__reason=ChangeReason.GAME
        ).values_list("reverts__game_id", flat=True)
    )


def _write_change(
    *,
    system: str,
    player_id: int,
    rating: Rating | None,
    before: float,
    after: float,
    games: int,
    games_delta: int,
    reason: str,
    period: str = "",
    game_id: int | None = None,
    played_at: dt.datetime | None = None,
    event_id: int | None = None,
    reverts: RatingChange | None = None,
    actor: Any = None,
    note: str = "",
    update_rating: bool = True,
) -> RatingChange:
    """Append one change and move the player's Rating row to match it."""
    change = RatingChange.objects.create(
        player_id=player_id,
        system=system,
        reason=reason,
        game_id=game_id,
        event_id=event_id,
        period=period,
        before=before,
        after=after,
        delta=after - before,
        games_delta=games_delta,
        reverts=reverts,
        actor=_actor(actor),
        note=note,
    )
    if not update_rating:
        return change
    if rating is None:
        Rating.objects.create(
            player_id=player_id,
            system=system,
            value=after,
            games=max(0, games),
            period=period,
            last_game_id=game_id,
            last_played_at=played_at,
        )
    else:
        rating.value = after
        rating.games = max(0, games)
        rating.period = period
        fields = ["value", "games", "period", "updated"]
        if game_id is not None and reason == ChangeReason.GAME:
            rating.last_game_id = game_id
            rating.last_played_at = played_at
            fields += ["last_game", "last_played_at"]
        rating.save(update_fields=fields)
    return change


# --- Games as plain data -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Seat:
    seat: int
    player_id: int
    score: int
    robot: bool


@dataclass(frozen=True, slots=True)
class _Game:
    id: int
    players_count: int
    is_pairs: bool
    winner_seat: int | None
    context: str
    event_id: int | None
    played_at: dt.datetime
    valid: bool
    seats: tuple[_Seat, ...]

    @property
    def robot(self) -> bool:
        return any(s.robot for s in self.seats)

    @property
    def is_duel(self) -> bool:
        return self.players_count == 2 and not self.is_pairs and len(self.seats) == 2


def _load_games(game_ids: Sequence[int]) -> dict[int, _Game]:
    if not game_ids:
        return {}
    rows = Game.objects.filter(pk__in=game_ids).values(
        "id",
        "players_count",
        "is_pairs",
        "winner_seat",
        "context",
        "event_id",
        "played_at",
        "record__status",
    )
    seats: dict[int, list[_Seat]] = defaultdict(list)
    for game_id, seat, player_id, score, robot in (
        GameSeat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "player_id", "score", "player__is_robot")
    ):
        seats[game_id].append(_Seat(seat, player_id, score, robot))
    return {
        row["id"]: _Game(
            id=row["id"],
            players_count=row["players_count"],
            is_pairs=row["is_pairs"],
            winner_seat=row["winner_seat"],
            context=row["context"],
            event_id=row["event_id"],
            played_at=row["played_at"],
            valid=row["record__status"] == RecordStatus.VALID,
            seats=tuple(seats.get(row["id"], ())),
        )
        for row in rows
    }


DuelTuple = tuple  # (winner, loser, margin, robot) or (a, b, score, score, robot) for a draw


def duel_tuple(
    p0: int, s0: int, p1: int, s1: int, winner_seat: int | None, robot: bool
) -> DuelTuple:
    """A two-player game as ``recompute_lobby`` takes it.

    The winner is the adjudicated winner (a resignation or a loss on time may be won with the
    lower score), by the tile margin but at least 1; a game without a winner is a draw.
    """
    if winner_seat is None:
        return (p0, p1, 0, 0, robot)
    if winner_seat == 0:
        return (p0, p1, max(1, s0 - s1), robot)
    return (p1, p0, max(1, s1 - s0), robot)


def duel_move(
    t: DuelTuple, before: Callable[[int], float], params: LobbyParams
) -> dict[int, float]:
    """New ratings after a two-player game, exactly as ``recompute_lobby`` computes them."""
    if len(t) == 5:
        a, b, _, _, robot = t
        new_a, new_b = lobby_draw(before(a), before(b), robot=robot, params=params)
        return {a: new_a, b: new_b}
    winner, loser, margin, robot = t
    new_w, new_l = lobby_update(before(winner), before(loser), margin, robot=robot, params=params)
    return {winner: new_w, loser: new_l}


def doubles_move(
    seats: Sequence[tuple[int, int]],
    winner_seat: int | None,
    robot: bool,
    before: Callable[[int], float],
    params: LobbyParams,
) -> dict[int, float]:
    """New doubles ratings after a pairs game; ``seats`` are (player, score) by seat.

    Seats 0 and 2 are partners against 1 and 3 (partners share a colour); a team's score is
    its partners' best line.
    """
    (a1, sa1), (b1, sb1), (a2, sa2), (b2, sb2) = seats
    score_a, score_b = max(sa1, sa2), max(sb1, sb2)
    team_a = (before(a1), before(a2))
    team_b = (before(b1), before(b2))
    if winner_seat is None:
        new_a, new_b = doubles_draw(team_a, team_b, robot=robot, params=params)
    elif winner_seat % 2 == 0:
        new_a, new_b = doubles_update(
            team_a, team_b, max(1, score_a - score_b), robot=robot, params=params
        )
    else:
        new_b, new_a = doubles_update(
            team_b, team_a, max(1, score_b - score_a), robot=robot, params=params
        )
    return {a1: new_a[0], a2: new_a[1], b1: new_b[0], b2: new_b[1]}


# --- Applying games ----------------------------------------------------------------------------
#
# A game is announced when it is adjudicated (`game_ratings_announce`: a `PendingRating` row) and
# applied by the apply task in batches: one transaction takes the tables' locks once, reads the
# pending games and everything they need in a few bulk queries, moves the ratings in memory in
# game order with `ratings.systems`, and writes the changes, the Rating rows and the review flags
# with bulk statements. Exactly once: the "already applied?" read happens under the locks, and the
# unique constraint on `RatingChange` refuses a second game change whatever happens.

_Key = tuple[dt.datetime, int]  # game order: played time, then id


def _batch_limit() -> int:
    """How many games one apply transaction takes at most (it holds the locks and a worker)."""
    return max(1, int(getattr(settings, "RATINGS_APPLY_BATCH_GAMES", 200)))


def _unrated_games(*, since: dt.datetime | None) -> Any:
    """Valid, ratable games (played since ``since``) that no table has taken yet, in game order.

    O(games since ``since``): the sweep and never-announced games use it, the apply task does not.
    """
    lobby_done = RatingChange.objects.filter(
        game=OuterRef("pk"), system=RatingSystem.LOBBY, reason=ChangeReason.GAME
    )
    doubles_done = RatingChange.objects.filter(
        game=OuterRef("pk"), system=RatingSystem.DOUBLES, reason=ChangeReason.GAME
    )
    games = Game.objects.filter(record__status=RecordStatus.VALID)
    if since is not None:
        games = games.filter(played_at__gte=since)
    return games.filter(
        (Q(players_count=2, is_pairs=False) & ~Exists(lobby_done))
        | (Q(is_pairs=True) & ~Exists(doubles_done))
    ).order_by("played_at", "id")


def _sweep_since() -> dt.datetime:
    return timezone.now() - dt.timedelta(hours=settings.RATINGS_SWEEP_WINDOW_HOURS)


def game_ratings_announce(game_id: int) -> bool:
    """Put an adjudicated game on the ratings' work list, in one statement.

    True when it was added; False when no table takes it (not valid, or a free-for-all game) or
    it was announced before.
    """
    qn = connection.ops.quote_name
    sql = (
        f"INSERT INTO {qn(PendingRating._meta.db_table)} (game_id, played_at, created) "
        f"SELECT g.id, g.played_at, %s FROM {qn(Game._meta.db_table)} g "
        f"INNER JOIN {qn(GameRecord._meta.db_table)} r ON r.id = g.record_id "
        "WHERE g.id = %s AND r.status = %s "
        "AND ((g.players_count = 2 AND NOT g.is_pairs) OR g.is_pairs) "
        "ON CONFLICT DO NOTHING"
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, game_id, RecordStatus.VALID])
        return cursor.rowcount == 1


@dataclass
class AppliedBatch:
    """What one apply transaction did."""

    moved: dict[int, list[str]] = field(default_factory=dict)  # game id -> tables it moved now
    target_done: bool = True  # the game asked for is applied (now or before) or counts nowhere
    more: bool = False  # games remain for a following batch
    # A table moved or a pending game was taken off the list: what guarantees that batch after
    # batch ends (a cut run of games no table can take would otherwise come back every time).
    progress: bool = False

    @property
    def games_moved(self) -> int:
        return sum(1 for tables in self.moved.values() if tables)


def game_ratings_apply(*, game_id: int) -> list[str]:
    """Apply one valid game to every table it counts in, exactly once per table.

    The announced games go with it, in game order; a game that was never announced (its
    announcement was lost, or the caller made it) first takes along every unrated game of the
    sweep window played before it. Returns the tables this game moved now (empty when it was
    applied before, is not ratable, or was reverted).
    """
    while True:
        batch = _apply_batch(target=game_id)
        if batch.target_done or not batch.progress:
            return batch.moved.get(game_id, [])


def games_ratings_apply_announced(*, game_id: int | None = None) -> AppliedBatch:
    """The apply task's work: one batch of announced games (and ``game_id`` if never announced).

    Nothing to do (a duplicate delivery) costs one query, or two with a game id.
    """
    if not PendingRating.objects.exists() and (
        game_id is None or not _unrated_games(since=None).filter(pk=game_id).exists()
    ):
        return AppliedBatch()
    return _apply_batch(target=game_id)


def games_ratings_apply_pending(*, limit: int = 5000) -> int:
    """The sweep: apply the announced games and every unrated game of the sweep window, in game
    order (one transaction); returns how many games moved a table."""
    batch = _apply_batch(sweep=True, limit=limit)
    if batch.more:
        enqueue_pending_ratings()
    return batch.games_moved


def _apply_batch(
    *, target: int | None = None, sweep: bool = False, limit: int | None = None
) -> AppliedBatch:
    """One transaction: lock the tables, choose the games, apply them in game order.

    The games come from runs, each in game order: the pending (announced) games, for a target
    that was never announced the unrated games of the window before it and the target, for the
    sweep the unrated games of the window. A run cut at ``limit`` only vouches for games up to
    its last one, so the batch stops there and a following batch goes on: game order holds.
    """
    limit = limit or _batch_limit()
    result = AppliedBatch()
    with transaction.atomic():
        _lock(*PER_GAME_SYSTEMS)
        pending = [
            (played, game_id)
            for game_id, played in PendingRating.objects.order_by(
                "played_at", "game_id"
            ).values_list("game_id", "played_at")[: limit + 1]
        ]
        runs: list[tuple[list[_Key], bool]] = [(pending[:limit], len(pending) > limit)]
        if target is not None and all(game_id != target for _, game_id in runs[0][0]):
            if runs[0][1] and PendingRating.objects.filter(game_id=target).exists():
                result.target_done = False  # announced, and later than this batch's games
            else:
                played = (
                    _unrated_games(since=None)
                    .filter(pk=target)
                    .values_list("played_at", flat=True)
                    .first()
                )
                if played is not None:  # never announced, and not applied yet
                    earlier = list(
                        _unrated_games(since=_sweep_since())
                        .filter(Q(played_at__lt=played) | Q(played_at=played, id__lt=target))
                        .values_list("played_at", "id")[: limit + 1]
                    )
                    runs.append((earlier[:limit], len(earlier) > limit))
                    runs.append(([(played, target)], False))
        if sweep:
            unrated = list(
                _unrated_games(since=_sweep_since()).values_list("played_at", "id")[: limit + 1]
            )
            runs.append((unrated[:limit], len(unrated) > limit))
        cutoff = min((run[-1] for run, cut in runs if cut), default=None)
        keys = sorted({key for run, _ in runs for key in run if cutoff is None or key <= cutoff})
        game_ids = [game_id for _, game_id in keys]
        result.more = cutoff is not None
        if target is not None and result.target_done and target not in game_ids:
            result.target_done = all(game_id != target for run, _ in runs for _, game_id in run)
        if game_ids:
            result.moved = _apply_games(game_ids)
            taken_off, _ = PendingRating.objects.filter(game_id__in=game_ids).delete()
            result.progress = bool(taken_off) or result.games_moved > 0
    return result


@dataclass(slots=True)
class _Standing:
    """A rating as a batch leaves it (what `_brought` reads, and the Rating row to write)."""

    value: float
    games: int
    period: str
    last_game_id: int
    last_played_at: dt.datetime


def _tables_of(game: _Game) -> list[str]:
    if not game.valid:
        return []
    if game.is_duel:
        return [RatingSystem.LOBBY, RatingSystem.MONTHLY, RatingSystem.MASTER]
    if game.is_pairs and len(game.seats) == 4:
        return [RatingSystem.DOUBLES]
    return []  # three- and four-player free-for-all games have no table


def _ratings_of(system: str, player_ids: Iterable[int]) -> dict[int, Rating]:
    return {
        r.player_id: r for r in Rating.objects.filter(system=system, player_id__in=list(player_ids))
    }


def _brought(
    rating: Rating | _Standing | None, system: str, params: LobbyParams, period: str
) -> tuple[float, int]:
    """The rating and games count a player brings to a game of ``period``."""
    if system == RatingSystem.MONTHLY:
        value = monthly_rating(
            rating.value if rating else None, rating.period if rating else None, period, params
        )
        games = rating.games if rating and rating.period == period else 0
        return value, games
    if rating is None:
        return params.start, 0
    return rating.value, rating.games


def _apply_games(game_ids: Sequence[int]) -> dict[int, list[str]]:
    """Apply these games in game order (caller holds the locks); returns the tables each moved.

    Reads: the games and seats, the changes they already made, reverts of those, the Master
    titles of their players, the players' ratings, the wins between the same players (repeated
    results). Writes: the changes, the Rating rows (one upsert), the review flags.
    """
    games = sorted(_load_games(game_ids).values(), key=lambda g: (g.played_at, g.id))
    moved: dict[int, list[str]] = {game.id: [] for game in games}
    plan = [(game, tables) for game in games if (tables := _tables_of(game))]
    if not plan:
        return moved
    done: dict[int, set[str]] = defaultdict(set)
    for game_id, system in RatingChange.objects.filter(
        game_id__in=[game.id for game, _ in plan], reason=ChangeReason.GAME
    ).values_list("game_id", "system"):
        done[game_id].add(system)
    reverted: set[int] = set()
    if done:  # a game reverted by an admin no longer counts anywhere
        reverted = set(
            RatingChange.objects.filter(
                reason=ChangeReason.REVERT,
                reverts__reason=ChangeReason.GAME,
                reverts__game_id__in=list(done),
            ).values_list("reverts__game_id", flat=True)
        )
    plan = [
        (game, [t for t in tables if t not in done[game.id]])
        for game, tables in plan
        if game.id not in reverted
    ]
    plan = [(game, tables) for game, tables in plan if tables]
    if not plan:
        return moved

    title_players = {
        seat.player_id
        for game, tables in plan
        if RatingSystem.MASTER in tables and game.context != "master"
        for seat in game.seats
    }
    masters = _master_intervals(player_ids=title_players) if title_players else {}
    systems = {system for _, tables in plan for system in tables}
    params = {system: _params_for(system) for system in systems}
    current: dict[tuple[int, str], Rating | _Standing] = {
        (r.player_id, r.system): r
        for r in Rating.objects.filter(
            player_id__in={seat.player_id for game, _ in plan for seat in game.seats},
            system__in=systems,
        )
    }
    _fault_injection_delay()

    changes: list[RatingChange] = []
    written: dict[tuple[int, str], _Standing] = {}
    decisive: list[tuple[_Game, int, int, RatingChange]] = []  # lobby wins, for repeated results
    for game, tables in plan:
        for system in tables:
            if system == RatingSystem.MASTER and not (
                game.context == "master"
                or all(_held(masters.get(s.player_id, ()), game.played_at) for s in game.seats)
            ):
                continue
            period = game_period(game.played_at) if system == RatingSystem.MONTHLY else ""
            brought = {
                s.player_id: _brought(
                    current.get((s.player_id, system)), system, params[system], period
                )
                for s in game.seats
            }
            if system == RatingSystem.DOUBLES:
                duel = None
                after = doubles_move(
                    [(s.player_id, s.score) for s in game.seats],
                    game.winner_seat,
                    game.robot,
                    lambda pid, brought=brought: brought[pid][0],
                    params[system],
                )
            else:
                s0, s1 = game.seats
                duel = duel_tuple(
                    s0.player_id, s0.score, s1.player_id, s1.score, game.winner_seat, game.robot
                )
                after = duel_move(
                    duel, lambda pid, brought=brought: brought[pid][0], params[system]
                )
            made = {}
            for pid, value in after.items():
                before, games = brought[pid]
                made[pid] = RatingChange(
                    player_id=pid,
                    system=system,
                    reason=ChangeReason.GAME,
                    game_id=game.id,
                    period=period,
                    before=before,
                    after=value,
                    delta=value - before,
                    games_delta=1,
                )
                standing = _Standing(value, games + 1, period, game.id, game.played_at)
                current[(pid, system)] = written[(pid, system)] = standing
            changes.extend(made.values())
            if system == RatingSystem.LOBBY and duel is not None and len(duel) == 4:
                decisive.append((game, duel[0], duel[1], made[duel[0]]))
            moved[game.id].append(system)

    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=pid,
                system=system,
                value=standing.value,
                games=standing.games,
                period=standing.period,
                last_game_id=standing.last_game_id,
                last_played_at=standing.last_played_at,
            )
            for (pid, system), standing in written.items()
        ],
        update_conflicts=True,
        unique_fields=["player", "system"],
        update_fields=["value", "games", "period", "last_game", "last_played_at", "updated"],
    )
    reviews = _swing_reviews(changes) + _repeated_results_reviews(decisive)
    if reviews:
        Review.objects.bulk_create(reviews)
    return moved


# --- Review flags ------------------------------------------------------------------------------


def _swing_reviews(changes: Iterable[RatingChange]) -> list[Review]:
    """Flags for game changes that move a 0-1000 rating by more than the swing setting (new
    changes, so none is flagged yet). The monthly table mirrors the lobby game by game, so its
    swings are not flagged twice."""
    limit = settings.RATINGS_REVIEW_SWING_POINTS
    return [
        Review(
            kind=ReviewKind.LARGE_SWING,
            change=change,
            player_id=change.player_id,
            game_id=change.game_id,
            detail={"system": change.system, "delta": round(change.delta, 3)},
        )
        for change in changes
        if change.system != RatingSystem.MONTHLY and abs(change.delta) >= limit
    ]


def _flag_swings(system: str, changes: Iterable[RatingChange], game_id: int | None) -> None:
    """Queue a change for review when it moves a rating by more than the swing setting.

    The monthly table mirrors the lobby game by game, so its swings are not flagged twice.
    """
    if system == RatingSystem.MONTHLY:
        return
    limit = (
        settings.RATINGS_REVIEW_SWING_ELO
        if system == RatingSystem.ELO
        else settings.RATINGS_REVIEW_SWING_POINTS
    )
    for change in changes:
        if abs(change.delta) >= limit:
            Review.objects.get_or_create(
                kind=ReviewKind.LARGE_SWING,
                change=change,
                defaults={
                    "player_id": change.player_id,
                    "game_id": game_id,
                    "detail": {"system": system, "delta": round(change.delta, 3)},
                },
            )


def _repeated_results_reviews(
    decisive: Sequence[tuple[_Game, int, int, RatingChange]],
) -> list[Review]:
    """Flag the same player beating the same opponent many times within the window.

    ``decisive`` are the batch's lobby wins as (game, winner, loser, winner's change), in game
    order. One query reads every two-player win between those pairs in the span the batch needs
    (any game, rated or not, as the count always was); the counts are taken in memory. Flagged
    once per pair and window: earlier flags are read only when a count reaches the setting.
    """
    if not decisive:
        return []
    hours = settings.RATINGS_REVIEW_REPEAT_HOURS
    window = dt.timedelta(hours=hours)
    pairs = {(winner, loser) for _, winner, loser, _ in decisive}
    players = {player for pair in pairs for player in pair}
    wins: dict[tuple[int, int], list[dt.datetime]] = defaultdict(list)
    for played, winner_seat, p0, p1 in (
        Game.objects.filter(
            players_count=2,
            is_pairs=False,
            winner_seat__in=(0, 1),
            played_at__gte=min(game.played_at for game, *_ in decisive) - window,
            played_at__lte=max(game.played_at for game, *_ in decisive),
        )
        .annotate(
            first=FilteredRelation("seats", condition=Q(seats__seat=0)),
            second=FilteredRelation("seats", condition=Q(seats__seat=1)),
        )
        .filter(first__player_id__in=players, second__player_id__in=players)
        .values_list("played_at", "winner_seat", "first__player_id", "second__player_id")
    ):
        pair = (p0, p1) if winner_seat == 0 else (p1, p0)
        if pair in pairs:
            wins[pair].append(played)
    for times in wins.values():
        times.sort()
    reviews: list[Review] = []
    flagged: set[tuple[int, Any]] | None = None
    for game, winner, loser, change in decisive:
        times = wins.get((winner, loser), [])
        count = bisect_right(times, game.played_at) - bisect_left(times, game.played_at - window)
        if count < settings.RATINGS_REVIEW_REPEAT_GAMES:
            continue
        if flagged is None:
            flagged = {
                (player_id, (detail or {}).get("opponent"))
                for player_id, detail in Review.objects.filter(
                    kind=ReviewKind.REPEATED_RESULTS,
                    player_id__in={w for _, w, _, _ in decisive},
                    created__gte=timezone.now() - window,
                ).values_list("player_id", "detail")
            }
        if (winner, loser) in flagged:
            continue
        flagged.add((winner, loser))
        reviews.append(
            Review(
                kind=ReviewKind.REPEATED_RESULTS,
                change=change,
                game_id=game.id,
                player_id=winner,
                detail={"opponent": loser, "wins": count, "hours": hours},
            )
        )
    return reviews


def game_review_flag(*, game_id: int, note: str = "", actor: Any = None) -> Review | None:
    """Flag a rated game for review because it was later ruled on or invalidated.

    The seam for ``tournaments`` (a match ruling) and for the sweep (a record no longer valid):
    an admin then approves the ratings as they stand or reverts the game. Idempotent: a game is
    flagged once. None when the game moved no rating.
    """
    with transaction.atomic():
        change = (
            RatingChange.objects.filter(game_id=game_id, reason=ChangeReason.GAME)
            .order_by("id")
            .first()
        )
        if change is None:
            return None
        review, created = Review.objects.get_or_create(
            kind=ReviewKind.GAME_INVALIDATED,
            game_id=game_id,
            defaults={
                "change": change,
                "player_id": change.player_id,
                "detail": {"note": note} if note else {},
            },
        )
        if created and actor is not None:
            _audit(actor=actor, action=AuditAction.REVIEW_FLAG, reason=note, review=review)
        return review


def games_flag_invalidated() -> int:
    """Flag rated games whose record is no longer valid (and not reverted yet).

    Starts from the few records that are not valid (status is indexed), not from the changes.
    """
    still_counts = RatingChange.objects.filter(
        game=OuterRef("pk"), reason=ChangeReason.GAME, reverted_by__isnull=True
    )
    flagged_before = Review.objects.filter(game=OuterRef("pk"), kind=ReviewKind.GAME_INVALIDATED)
    game_ids = (
        Game.objects.exclude(record__status=RecordStatus.VALID)
        .filter(Exists(still_counts))
        .filter(~Exists(flagged_before))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    flagged = 0
    for game_id in list(game_ids):
        if game_review_flag(game_id=game_id, note="the game's record is no longer valid"):
            flagged += 1
    return flagged


def ratings_sweep() -> dict[str, int]:
    """The beat task's work: rate what was missed, flag what was invalidated."""
    return {"applied": games_ratings_apply_pending(), "flagged": games_flag_invalidated()}


# --- Scheduling the apply task -----------------------------------------------------------------
#
# At most one apply task is queued or running at a time (per database): announcing a game
# publishes the task only when it takes the "scheduled" key (Redis SET NX on the broker, with a
# time-to-live). When its batch is committed the task looks for games announced meanwhile: if
# there are some (the site is busy), it keeps the key and publishes the next task to start a
# moment later (`RATINGS_APPLY_BATCH_SECONDS`), so that games gather into batches; if not, it
# gives the key back (and looks once more, for an announcement that saw the key taken). An idle
# site has each game applied at once; a burst becomes a few batch tasks. Correctness never
# depends on this: a duplicate task finds nothing to do, and a lost key only delays the next
# task by the time-to-live (or until the sweep).


def _schedule_seconds() -> int:
    return max(1, int(getattr(settings, "RATINGS_APPLY_SCHEDULE_SECONDS", 15)))


def _gather_seconds() -> float:
    return max(0.0, float(getattr(settings, "RATINGS_APPLY_BATCH_SECONDS", 0.5)))


def _tasks_eager() -> bool:
    from ratings.tasks import apply_game

    return bool(apply_game.app.conf.task_always_eager)


_schedule_clients: dict[str, Any] = {}


def _schedule_redis() -> Any:
    url = settings.CELERY_BROKER_URL
    client = _schedule_clients.get(url)
    if client is None:
        import redis

        client = _schedule_clients[url] = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5
        )
    return client


@atexit.register
def _drop_schedule_clients() -> None:
    # Collected now rather than at interpreter teardown, where redis-py's __del__ fails noisily.
    while _schedule_clients:
        _schedule_clients.popitem()[1].close()


def _schedule_key() -> str:
    return f"tantrix:ratings:apply-scheduled:{connection.settings_dict['NAME']}"


def _schedule_claim() -> bool:
    """Whether the caller should publish the apply task (none is queued or running)."""
    if _tasks_eager():
        return True
    try:
        return bool(_schedule_redis().set(_schedule_key(), "1", nx=True, ex=_schedule_seconds()))
    except Exception:  # noqa: BLE001 - Redis down: publish anyway (a duplicate is harmless)
        return True


def _schedule_keep() -> None:
    try:
        _schedule_redis().set(_schedule_key(), "1", ex=_schedule_seconds())
    except Exception:  # noqa: BLE001 - the next announcement publishes a task instead
        logger.warning("could not keep the ratings apply schedule", exc_info=True)


def _schedule_release() -> None:
    if _tasks_eager():
        return
    try:
        _schedule_redis().delete(_schedule_key())
    except Exception:  # noqa: BLE001 - the key expires by itself
        logger.warning("could not release the ratings apply schedule", exc_info=True)


def _publish_apply(game_id: int | None, *, claimed: bool, countdown: float = 0.0) -> bool:
    from ratings.tasks import apply_game

    try:
        if countdown:
            apply_game.apply_async((game_id,), countdown=countdown)
        else:
            apply_game.delay(game_id)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
        if claimed:
            _schedule_release()
        logger.warning(
            "could not enqueue the ratings (game %s); the sweep will", game_id, exc_info=True
        )
        return False
    return True


def enqueue_game_ratings(game_id: int) -> bool:
    """Announce an adjudicated game to the ratings and see that an apply task will run.

    Returns False when the task could not be published (broker outage: logged, never raised);
    the game stays pending, and the next task or the sweep (beat) applies it.
    """
    try:
        announced = game_ratings_announce(game_id)
    except DatabaseError:
        logger.warning("could not announce game %s to the ratings", game_id, exc_info=True)
        # Unannounced: its own task applies it, with the unrated games played before it.
        return _publish_apply(game_id, claimed=False)
    if not announced:
        return True  # no table takes it, or it was announced before
    if not _schedule_claim():
        return True  # a task is queued or running; it (or the one it publishes) applies this
    return _publish_apply(game_id, claimed=True)


def enqueue_pending_ratings() -> bool:
    """Publish the apply task for the pending games, unless one is queued or running."""
    if not _schedule_claim():
        return True
    return _publish_apply(None, claimed=True)


def ratings_apply_continue(batch: AppliedBatch, *, game_id: int | None = None) -> None:
    """After an apply task's batch: publish the next task if games are pending, else give the
    schedule back."""
    if _tasks_eager():  # in-process: finish here rather than recursing through the task
        while (batch.more or not batch.target_done) and batch.progress:
            batch = _apply_batch(target=None if batch.target_done else game_id)
        return
    target = None if batch.target_done else game_id
    if (batch.more or not batch.target_done) and batch.progress:
        _schedule_keep()  # a backlog: go on at once
        _publish_apply(target, claimed=True)
    elif PendingRating.objects.exists():
        _schedule_keep()  # games arrive while we work: let the next batch gather a moment
        _publish_apply(None, claimed=True, countdown=_gather_seconds())
    else:
        _schedule_release()
        # An announcement between the look and the release saw the key taken: publish for it.
        if PendingRating.objects.exists() and _schedule_claim():
            _publish_apply(None, claimed=True)


def enqueue_event_elo(event_id: int) -> bool:
    from ratings.tasks import recalculate_event_elo

    try:
        recalculate_event_elo.delay(event_id)
    except Exception:  # noqa: BLE001 - as above; the periodic recalculation catches up
        logger.warning("could not enqueue the Elo of event %s", event_id, exc_info=True)
        return False
    return True


# --- Reverting and adjusting -------------------------------------------------------------------


def _current_for_revert(change: RatingChange) -> tuple[Rating | None, float, bool]:
    """The value a compensating change starts from, and whether it moves the Rating row.

    A monthly change of a month that is over is compensated within that month's history; the
    current month's table is not touched.
    """
    rating = Rating.objects.filter(player_id=change.player_id, system=change.system).first()
    if change.system == RatingSystem.MONTHLY and (rating is None or rating.period != change.period):
        last = (
            RatingChange.objects.filter(
                player_id=change.player_id, system=change.system, period=change.period
            )
            .order_by("-id")
            .first()
        )
        return None, (last.after if last else change.after), False
    if rating is None:
        return None, start_value(change.system), True
    return rating, rating.value, True


def _compensate(change: RatingChange, *, actor: Any, note: str) -> RatingChange:
    rating, current, moves_rating = _current_for_revert(change)
    if current == change.after:
        after = change.before  # nothing moved since: restore exactly
    else:
        after = _clamp(change.system, current - change.delta)
    games = (rating.games if rating else 0) - change.games_delta
    return _write_change(
        system=change.system,
        player_id=change.player_id,
        rating=rating,
        before=current,
        after=after,
        games=games,
        games_delta=-change.games_delta,
        reason=ChangeReason.REVERT,
        period=change.period if change.system == RatingSystem.MONTHLY else "",
        game_id=change.game_id,
        event_id=change.event_id,
        reverts=change,
        actor=actor,
        note=note,
        update_rating=moves_rating,
    )


def game_ratings_revert(*, actor: Any, game_id: int, note: str) -> list[RatingChange]:
    """Revert every rating change a game caused, in every table, with compensating changes.

    The game then no longer counts: it is skipped by later applications and by recomputes, and
    its tournament's Elo is recalculated without it. Later games keep the changes they made.
    """
    note = _require_note(note)
    with transaction.atomic():
        _lock(*PER_GAME_SYSTEMS, RatingSystem.ELO)
        changes = list(
            RatingChange.objects.filter(
                game_id=game_id, reason=ChangeReason.GAME, reverted_by__isnull=True
            ).order_by("id")
        )
        if not changes:
            raise ValidationError({"game": "This game has no rating changes left to revert."})
        compensations = [_compensate(c, actor=actor, note=note) for c in changes]
        _audit(
            actor=actor,
            action=AuditAction.GAME_REVERT,
            reason=note,
            change=changes[0],
            details={
                "game": game_id,
                "changes": [c.pk for c in changes],
                "compensations": [c.pk for c in compensations],
            },
        )
        event_id = Game.objects.filter(pk=game_id).values_list("event_id", flat=True).first()
        if event_id is not None:
            transaction.on_commit(lambda: enqueue_event_elo(event_id))
    return compensations


def change_revert(*, actor: Any, change_id: int, note: str) -> list[RatingChange]:
    """Revert one change: a game's change reverts the whole game (a game counts or it does
    not); an adjustment or a recompute correction is compensated on its own."""
    note = _require_note(note)
    change = RatingChange.objects.filter(pk=change_id).first()
    if change is None:
        raise ValidationError({"change": "No such rating change."})
    if change.reason == ChangeReason.GAME:
        return game_ratings_revert(actor=actor, game_id=change.game_id, note=note)
    if change.reason == ChangeReason.REVERT:
        raise ValidationError({"change": "A revert cannot itself be reverted; adjust instead."})
    if change.reason in (ChangeReason.TOURNAMENT, ChangeReason.ANCHOR):
        raise ValidationError(
            {
                "change": "Tournament Elo changes follow from the tournament's games: revert a "
                "game instead, and its tournament is recalculated."
            }
        )
    with transaction.atomic():
        _lock(change.system)
        change = RatingChange.objects.select_for_update().get(pk=change_id)
        if change.is_reverted:
            raise ValidationError({"change": "This change has already been reverted."})
        compensation = _compensate(change, actor=actor, note=note)
        _audit(
            actor=actor,
            action=AuditAction.CHANGE_REVERT,
            reason=note,
            player_id=change.player_id,
            change=change,
            details={"compensation": compensation.pk},
        )
    return [compensation]


def rating_adjust(
    *,
    actor: Any,
    player_id: int,
    system: str,
    reason: str,
    delta: float | None = None,
    value: float | None = None,
) -> RatingChange:
    """A manual adjustment by an admin, by ``delta`` or to ``value`` (one of them), with a
    reason (kept on the change and in the audit trail)."""
    reason = _require_note(reason, "reason")
    if system not in RatingSystem.values:
        raise ValidationError({"system": f"Unknown table {system!r}."})
    if (delta is None) == (value is None):
        raise ValidationError({"delta": "Give either a delta or a new value, not both."})
    if not Player.objects.filter(pk=player_id).exists():
        raise ValidationError({"player": "No such player."})
    with transaction.atomic():
        _lock(system)
        rating = Rating.objects.filter(player_id=player_id, system=system).first()
        period = ""
        if system == RatingSystem.MONTHLY:
            period = current_period()
            before, games = _brought(rating, system, _params_for(system), period)
        elif rating is None:
            before, games = start_value(system), 0
        else:
            before, games = rating.value, rating.games
        after = before + delta if delta is not None else float(value)
        if system in SCALED_SYSTEMS and not 0.0 <= after <= 1000.0:
            raise ValidationError(
                {
                    "delta" if delta is not None else "value": (
                        f"The rating would be {after:.2f}; this table runs from 0 to 1000."
                    )
                }
            )
        change = _write_change(
            system=system,
            player_id=player_id,
            rating=rating,
            before=before,
            after=after,
            games=games,
            games_delta=0,
            reason=ChangeReason.ADJUSTMENT,
            period=period,
            actor=actor,
            note=reason,
        )
        _audit(
            actor=actor,
            action=AuditAction.ADJUSTMENT,
            reason=reason,
            player_id=player_id,
            change=change,
            details={"system": system, "before": before, "after": after},
        )
    return change


# --- Reviews -----------------------------------------------------------------------------------


def _open_review(review_id: int) -> Review:
    review = Review.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise ValidationError({"review": "No such review."})
    if not review.is_open:
        raise ValidationError({"review": f"This review is already {review.get_status_display()}."})
    return review


def review_approve(*, actor: Any, review_id: int, note: str) -> Review:
    """Close a review leaving the ratings as they are."""
    note = _require_note(note)
    with transaction.atomic():
        review = _open_review(review_id)
        review.status = ReviewStatus.APPROVED
        review.reviewer = _actor(actor)
        review.note = note
        review.resolved_at = timezone.now()
        review.save(update_fields=["status", "reviewer", "note", "resolved_at"])
        _audit(
            actor=actor,
            action=AuditAction.REVIEW_APPROVE,
            reason=note,
            review=review,
            player_id=review.player_id,
            change=review.change,
            title=review.title,
        )
    return review


def review_revert(*, actor: Any, review_id: int, note: str) -> Review:
    """Close a review by reverting what it flags: the flagged game in every table, or the
    flagged change. Other open reviews of the same game close with it."""
    note = _require_note(note)
    with transaction.atomic():
        review = _open_review(review_id)
        if review.change_id is None and review.game_id is None:
            raise ValidationError(
                {"review": "This review flags a player, not a change: there is nothing to revert."}
            )
        game_id = review.game_id or (review.change.game_id if review.change else None)
        if game_id is not None:
            still_counts = RatingChange.objects.filter(
                game_id=game_id, reason=ChangeReason.GAME, reverted_by__isnull=True
            ).exists()
            if still_counts:
                game_ratings_revert(actor=actor, game_id=game_id, note=note)
        elif not review.change.is_reverted:
            change_revert(actor=actor, change_id=review.change_id, note=note)
        now = timezone.now()
        siblings = Review.objects.filter(status=ReviewStatus.OPEN)
        siblings = (
            siblings.filter(Q(game_id=game_id) | Q(change__game_id=game_id))
            if game_id is not None
            else siblings.filter(pk=review.pk)
        )
        closed = list(siblings.values_list("pk", flat=True))
        siblings.update(
            status=ReviewStatus.REVERTED, reviewer=_actor(actor), note=note, resolved_at=now
        )
        review.refresh_from_db()
        _audit(
            actor=actor,
            action=AuditAction.REVIEW_REVERT,
            reason=note,
            review=review,
            player_id=review.player_id,
            change=review.change,
            details={"game": game_id, "reviews_closed": closed},
        )
    return review


# --- Titles ------------------------------------------------------------------------------------

ELIGIBILITY_MESSAGES = {
    BELOW_LOBBY: "The player's lobby ranking is below {min_lobby:g}.",
    NO_ELO_TOURNAMENT: "The player has played no Elo-rated tournament.",
    CAP_REACHED: "The cap of {cap} Master titles is reached.",
}


def elo_tournaments_played(player_id: int) -> int:
    return EloStanding.objects.filter(player_id=player_id).count()


def title_award(*, actor: Any, player_id: int, note: str) -> Title:
    """Award the Master title to an eligible player, within the cap (counted under a lock)."""
    note = _require_note(note)
    params = rating_params.title_params()
    with transaction.atomic():
        _lock("titles")
        if not Player.objects.filter(pk=player_id).exists():
            raise ValidationError({"player": "No such player."})
        if Title.objects.filter(
            player_id=player_id, kind=Title.Kind.MASTER, status=Title.Status.ACTIVE
        ).exists():
            raise ValidationError({"player": "The player already holds the Master title."})
        lobby = (
            Rating.objects.filter(player_id=player_id, system=RatingSystem.LOBBY)
            .values_list("value", flat=True)
            .first()
        )
        verdict = title_eligibility(
            lobby_rating=lobby if lobby is not None else start_value(RatingSystem.LOBBY),
            elo_tournaments=elo_tournaments_played(player_id),
            titles_held=Title.objects.filter(
                kind=Title.Kind.MASTER, status=Title.Status.ACTIVE
            ).count(),
            params=params,
        )
        if not verdict.eligible:
            raise ValidationError(
                {
                    "player": [
                        ELIGIBILITY_MESSAGES[code].format(
                            min_lobby=params.min_lobby, cap=params.cap
                        )
                        for code in verdict.reasons
                    ]
                }
            )
        title = Title.objects.create(
            player_id=player_id, kind=Title.Kind.MASTER, awarded_by=_actor(actor), note=note
        )
        _audit(
            actor=actor,
            action=AuditAction.TITLE_AWARD,
            reason=note,
            player_id=player_id,
            title=title,
            details={"lobby": lobby},
        )
    return title


def title_withdraw(*, actor: Any, title_id: int, note: str, lapsed: bool = False) -> Title:
    """End a held title (as lapsed, or withdrawn); its open lapse reviews close as approved."""
    note = _require_note(note)
    with transaction.atomic():
        _lock("titles")
        title = Title.objects.select_for_update().filter(pk=title_id).first()
        if title is None:
            raise ValidationError({"title": "No such title."})
        if not title.is_active:
            raise ValidationError({"title": f"This title is already {title.status}."})
        now = timezone.now()
        title.status = Title.Status.LAPSED if lapsed else Title.Status.WITHDRAWN
        title.ended_at = now
        title.ended_by = _actor(actor)
        title.end_note = note
        title.save(update_fields=["status", "ended_at", "ended_by", "end_note"])
        Review.objects.filter(
            title=title, kind=ReviewKind.TITLE_LAPSE, status=ReviewStatus.OPEN
        ).update(status=ReviewStatus.APPROVED, reviewer=_actor(actor), note=note, resolved_at=now)
        _audit(
            actor=actor,
            action=AuditAction.TITLE_WITHDRAW,
            reason=note,
            player_id=title.player_id,
            title=title,
            details={"status": title.status},
        )
    return title


def titles_check_lapses(*, today: dt.date | None = None) -> list[Review]:
    """Flag for review every held title not kept by enough Master games (beat task).

    A Master game is one the Master table rated (and that was not reverted).
    """
    today = today or timezone.localdate()
    params = rating_params.title_params()
    flagged = []
    for title in Title.objects.filter(kind=Title.Kind.MASTER, status=Title.Status.ACTIVE):
        dates = [
            timezone.localtime(played).date()
            for played in RatingChange.objects.filter(
                player_id=title.player_id,
                system=RatingSystem.MASTER,
                reason=ChangeReason.GAME,
                reverted_by__isnull=True,
            ).values_list("game__played_at", flat=True)
        ]
        verdict = title_lapse(
            awarded_on=timezone.localtime(title.awarded_at).date(),
            master_game_dates=dates,
            today=today,
            params=params,
        )
        if not verdict.lapsed:
            continue
        with transaction.atomic():
            if Review.objects.filter(
                title=title, kind=ReviewKind.TITLE_LAPSE, status=ReviewStatus.OPEN
            ).exists():
                continue
            flagged.append(
                Review.objects.create(
                    kind=ReviewKind.TITLE_LAPSE,
                    title=title,
                    player_id=title.player_id,
                    detail={
                        "lapsed_on": verdict.lapsed_on.isoformat(),
                        "games_to_keep": params.games_to_keep,
                        "window_months": params.window_months,
                    },
                )
            )
    return flagged


# --- Tournament Elo ----------------------------------------------------------------------------

EloGame = tuple[int, int, float, float]


def _elo_games_query() -> Any:
    """Two-player games of a tournament event with both TPs written, and not reverted."""
    reverted = RatingChange.objects.filter(
        reason=ChangeReason.REVERT, reverts__reason=ChangeReason.GAME, reverts__game=OuterRef("pk")
    )
    return (
        Game.objects.filter(
            event_id__isnull=False,
            players_count=2,
            is_pairs=False,
            record__status=RecordStatus.VALID,
        )
        .annotate(
            first=FilteredRelation("seats", condition=Q(seats__seat=0)),
            second=FilteredRelation("seats", condition=Q(seats__seat=1)),
        )
        .filter(first__tournament_points__isnull=False, second__tournament_points__isnull=False)
        .filter(~Exists(reverted))
    )


def _event_games(event_id: int) -> list[EloGame]:
    return [
        (a, b, float(tp_a), float(tp_b))
        for a, b, tp_a, tp_b in _elo_games_query()
        .filter(event_id=event_id)
        .order_by("played_at", "id")
        .values_list(
            "first__player_id",
            "second__player_id",
            "first__tournament_points",
            "second__tournament_points",
        )
    ]


@dataclass(frozen=True)
class EloEventState:
    event_id: int
    fingerprint: str
    games: int
    first_played_at: dt.datetime | None


def elo_event_states(*, event_id: int | None = None) -> list[EloEventState]:
    """Every event with Elo-ratable games, in tournament order (first game played, then id).

    The fingerprint changes when a game is added or reverted or its TPs move (a time penalty).
    """
    games = _elo_games_query()
    if event_id is not None:
        games = games.filter(event_id=event_id)
    rows = (
        games.values("event_id")
        .annotate(
            n=Count("id"),
            last=Max("id"),
            tp=Sum("first__tournament_points"),
            first_played=Min("played_at"),
        )
        .order_by("first_played", "event_id")
    )
    return [
        EloEventState(
            event_id=row["event_id"],
            fingerprint=f"{row['n']}:{row['last']}:{row['tp']}",
            games=row["n"],
            first_played_at=row["first_played"],
        )
        for row in rows
    ]


def elo_events_changed() -> list[EloEventState]:
    stored = dict(EloEvent.objects.values_list("event_id", "fingerprint"))
    return [s for s in elo_event_states() if stored.get(s.event_id) != s.fingerprint]


def _event_state(event_id: int) -> EloEventState | None:
    return next(iter(elo_event_states(event_id=event_id)), None)


@dataclass
class EloRecalculation:
    event_id: int
    games: int
    players: int
    changes: int
    anchor_shift: float = 0.0


def elo_event_recalculate(
    *, event_id: int, anchor: bool = True, actor: Any = None
) -> EloRecalculation:
    """Recalculate one tournament's Elo from its games (a running event may be done many times).

    Every player is updated from the standing they brought to the event (kept in EloStanding
    from the event's first calculation, so it does not drift as the event goes on). What the
    event adds to a rating is written as the difference from what it had added before: the
    first calculation adds the whole update, later ones only what changed. Then the pool is
    re-anchored to its games-weighted mean.
    """
    params = rating_params.elo_params()
    with transaction.atomic():
        _lock(RatingSystem.ELO)
        games = _event_games(event_id)
        standings = {s.player_id: s for s in EloStanding.objects.filter(event_id=event_id)}
        participants = {p for a, b, _, _ in games for p in (a, b)}
        ratings = _ratings_of(RatingSystem.ELO, participants | standings.keys())
        brought: dict[int, EloRating] = {}
        for pid in participants:
            if pid in standings:
                s = standings[pid]
                brought[pid] = EloRating(rating=s.rating_before, games=s.games_before)
            elif pid in ratings and ratings[pid].games > 0:
                brought[pid] = EloRating(rating=ratings[pid].value, games=ratings[pid].games)
            else:
                brought[pid] = EloRating(rating=params.initial, games=0)
        updates = elo_tournament(
            {pid: b for pid, b in brought.items() if b.games > 0}, games, params=params
        )
        written = []
        for pid in sorted(participants | standings.keys()):
            old = standings.get(pid)
            rating = ratings.get(pid)
            current = rating.value if rating else params.initial
            current_games = rating.games if rating else 0
            if old is not None:
                old_after, old_games = old.rating_after, old.games_after
            else:
                old_after, old_games = current, current_games
            if pid in updates:
                new_after, new_games = updates[pid].rating, updates[pid].games
            else:  # all their games in this event were reverted
                new_after, new_games = old.rating_before, old.games_before
            if new_after == old_after and new_games == old_games:
                continue
            # Nothing moved the rating since this event last set it: write the new value
            # itself (bit-exact); otherwise add what the event's contribution changed by.
            after = new_after if current == old_after else current + (new_after - old_after)
            written.append(
                _write_change(
                    system=RatingSystem.ELO,
                    player_id=pid,
                    rating=rating,
                    before=current,
                    after=after,
                    games=current_games + (new_games - old_games),
                    games_delta=new_games - old_games,
                    reason=ChangeReason.TOURNAMENT,
                    event_id=event_id,
                )
            )
        _flag_swings(
            RatingSystem.ELO,
            [c for c in written if brought.get(c.player_id, EloRating(0, 0)).games > 0],
            None,
        )
        for pid, update in updates.items():
            EloStanding.objects.update_or_create(
                event_id=event_id,
                player_id=pid,
                defaults={
                    "rating_before": brought[pid].rating,
                    "games_before": brought[pid].games,
                    "rating_after": update.rating,
                    "games_after": update.games,
                    "games": update.games - brought[pid].games,
                    "share": update.share,
                    "expected_share": update.expected_share,
                    "performance": update.performance,
                    "opposition_average": update.opposition_average,
                },
            )
        EloStanding.objects.filter(event_id=event_id).exclude(player_id__in=updates.keys()).delete()
        state = _event_state(event_id)
        EloEvent.objects.update_or_create(
            event_id=event_id,
            defaults={
                "fingerprint": state.fingerprint if state else "0:None:None",
                "games": len(games),
                "first_played_at": state.first_played_at if state else None,
                "calculated_at": timezone.now(),
            },
        )
        shift = _elo_anchor(params) if anchor else 0.0
        result = EloRecalculation(
            event_id=event_id,
            games=len(games),
            players=len(updates),
            changes=len(written),
            anchor_shift=shift,
        )
        _audit(
            actor=actor,
            action=AuditAction.ELO_RECALCULATE,
            details={
                "event": event_id,
                "games": len(games),
                "players": len(updates),
                "changes": len(written),
                "anchor_shift": shift,
            },
        )
    return result


def _anchor_step(standings: dict[int, EloRating], params: Any) -> float:
    """The common shift re-anchoring the pool needs, or 0 within the tolerance setting."""
    shift = anchor_shift(standings.values(), params)
    return shift if abs(shift) >= settings.RATINGS_ELO_ANCHOR_TOLERANCE and shift else 0.0


def _elo_anchor(params: Any) -> float:
    rated = list(Rating.objects.filter(system=RatingSystem.ELO, games__gt=0))
    shift = _anchor_step({r.player_id: EloRating(r.value, r.games) for r in rated}, params)
    if not shift:
        return 0.0
    changes = []
    for r in rated:
        after = r.value + shift
        changes.append(
            RatingChange(
                player_id=r.player_id,
                system=RatingSystem.ELO,
                reason=ChangeReason.ANCHOR,
                before=r.value,
                after=after,
                delta=after - r.value,
            )
        )
        r.value = after
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    Rating.objects.bulk_update(rated, ["value"], batch_size=2000)
    return shift


def elo_recalculate_changed() -> list[EloRecalculation]:
    """Recalculate, in tournament order, every event whose games changed (beat task)."""
    return [elo_event_recalculate(event_id=s.event_id) for s in elo_events_changed()]


# --- Recompute from history --------------------------------------------------------------------


@dataclass
class SystemRecompute:
    system: str
    games: int = 0
    players: int = 0
    corrected: int = 0


@dataclass
class Recompute:
    systems: dict[str, SystemRecompute] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass(slots=True)
class _Final:
    value: float
    games: int
    period: str = ""
    last_game: int | None = None
    last_played: dt.datetime | None = None


def _duel_rows(chunk_size: int) -> Iterator[tuple]:
    """All valid two-player games in game order, both seats on one row: one streamed query."""
    return (
        Game.objects.filter(players_count=2, is_pairs=False, record__status=RecordStatus.VALID)
        .annotate(
            first=FilteredRelation("seats", condition=Q(seats__seat=0)),
            second=FilteredRelation("seats", condition=Q(seats__seat=1)),
        )
        .order_by("played_at", "id")
        .values_list(
            "id",
            "played_at",
            "winner_seat",
            "context",
            "first__player_id",
            "first__score",
            "second__player_id",
            "second__score",
        )
        .iterator(chunk_size=chunk_size)
    )


def _master_intervals(
    *, player_ids: Iterable[int] | None = None
) -> dict[int, list[tuple[dt.datetime, dt.datetime | None]]]:
    """When each player held the Master title (of these players, or of everyone)."""
    held: dict[int, list[tuple[dt.datetime, dt.datetime | None]]] = defaultdict(list)
    titles = Title.objects.filter(kind=Title.Kind.MASTER)
    if player_ids is not None:
        titles = titles.filter(player_id__in=list(player_ids))
    for pid, start, end in titles.values_list("player_id", "awarded_at", "ended_at"):
        held[pid].append((start, end))
    return held


def _held(intervals: Iterable, when: dt.datetime) -> bool:
    return any(start <= when and (end is None or end > when) for start, end in intervals)


def ratings_recompute(
    *,
    systems: Sequence[str] | None = None,
    actor: Any = None,
    progress: bool = False,
    chunk_size: int = 20_000,
) -> Recompute:
    """Recompute tables from the whole game history and store the differences.

    Replays every valid, not reverted game in game order (played time, then id) with the pure
    maths, then compares the result with the stored ratings: each player whose rating differs
    gets one "recompute" change (append-only, like everything else) and their Rating row is set.
    When nothing was missed, reverted or reconfigured, nothing differs: the incremental path and
    this one compute the same floats.

    One streamed, ordered query reads the games (both seats on one row), ``recompute_lobby``
    replays them, and the results are written with bulk inserts; the tables are locked for the
    duration so no game is applied meanwhile.
    """
    from tqdm import tqdm

    wanted = list(dict.fromkeys(systems or RatingSystem.values))
    for system in wanted:
        if system not in RatingSystem.values:
            raise ValidationError({"system": f"Unknown table {system!r}."})
    began = time.perf_counter()
    result = Recompute()
    with transaction.atomic():
        # A recompute may wait for the batch in progress, but not forever either.
        _lock(*wanted, wait_seconds=settings.RATINGS_RECOMPUTE_LOCK_WAIT_SECONDS)
        reverted = _reverted_game_ids()
        duel_systems = [
            s
            for s in (RatingSystem.LOBBY, RatingSystem.MONTHLY, RatingSystem.MASTER)
            if s in wanted
        ]
        if duel_systems:
            total = (
                Game.objects.filter(
                    players_count=2, is_pairs=False, record__status=RecordStatus.VALID
                ).count()
                if progress
                else None
            )
            rows = tqdm(
                _duel_rows(chunk_size),
                total=total,
                desc="two-player games",
                unit="game",
                unit_scale=True,
                disable=not progress,
            )
            finals = _recompute_duels(rows, duel_systems, reverted)
            for system, (final, games) in finals.items():
                result.systems[system] = _store_recomputed(system, final, games, actor)
        if RatingSystem.DOUBLES in wanted:
            final, games = _recompute_doubles(reverted)
            result.systems[RatingSystem.DOUBLES] = _store_recomputed(
                RatingSystem.DOUBLES, final, games, actor
            )
        if RatingSystem.ELO in wanted:
            result.systems[RatingSystem.ELO] = _recompute_elo(actor)
        result.seconds = time.perf_counter() - began
        _audit(
            actor=actor,
            action=AuditAction.RECOMPUTE,
            details={
                "seconds": round(result.seconds, 3),
                "systems": {
                    s: {"games": r.games, "players": r.players, "corrected": r.corrected}
                    for s, r in result.systems.items()
                },
            },
        )
    return result


def _recompute_duels(
    rows: Iterable[tuple], systems: Sequence[str], reverted: set[int]
) -> dict[str, tuple[dict[int, _Final], int]]:
    robots = set(Player.objects.filter(is_robot=True).values_list("pk", flat=True))
    want_lobby = RatingSystem.LOBBY in systems
    want_monthly = RatingSystem.MONTHLY in systems
    want_master = RatingSystem.MASTER in systems
    masters = _master_intervals() if want_master else {}
    by_period: dict[str, list[DuelTuple]] = defaultdict(list)
    master_games: list[DuelTuple] = []
    last: dict[int, tuple[int, dt.datetime]] = {}
    last_in_period: dict[str, dict[int, tuple[int, dt.datetime]]] = defaultdict(dict)
    master_last: dict[int, tuple[int, dt.datetime]] = {}
    counted = [0]

    def duels() -> Iterator[DuelTuple]:
        for game_id, played, winner_seat, context, p0, s0, p1, s1 in rows:
            if game_id in reverted or p0 is None or p1 is None:
                continue
            counted[0] += 1
            t = duel_tuple(p0, s0, p1, s1, winner_seat, p0 in robots or p1 in robots)
            last[p0] = last[p1] = (game_id, played)
            if want_monthly:
                period = game_period(played)
                by_period[period].append(t)
                seen = last_in_period[period]
                seen[p0] = seen[p1] = (game_id, played)
            if want_master and (
                context == "master"
                or (
                    p0 in masters
                    and p1 in masters
                    and _held(masters[p0], played)
                    and _held(masters[p1], played)
                )
            ):
                master_games.append(t)
                master_last[p0] = master_last[p1] = (game_id, played)
            yield t

    out: dict[str, tuple[dict[int, _Final], int]] = {}
    lobby = recompute_lobby(duels(), params=_params_for(RatingSystem.LOBBY))
    if want_lobby:
        out[RatingSystem.LOBBY] = (_finals(lobby, last), counted[0])
    if want_monthly:
        final: dict[int, _Final] = {}
        params = _params_for(RatingSystem.MONTHLY)
        for period in sorted(by_period):  # later months overwrite earlier ones
            month = recompute_lobby(by_period[period], params=params)
            for pid, f in _finals(month, last_in_period[period]).items():
                f.period = period
                final[pid] = f
        out[RatingSystem.MONTHLY] = (final, counted[0])
    if want_master:
        master = recompute_lobby(master_games, params=_params_for(RatingSystem.MASTER))
        out[RatingSystem.MASTER] = (_finals(master, master_last), len(master_games))
    return out


def _finals(replayed: Any, last: dict[int, tuple[int, dt.datetime]]) -> dict[int, _Final]:
    return {
        pid: _Final(
            value=value,
            games=replayed.games.get(pid, 0),
            last_game=last.get(pid, (None, None))[0],
            last_played=last.get(pid, (None, None))[1],
        )
        for pid, value in replayed.ratings.items()
    }


def _recompute_doubles(reverted: set[int]) -> tuple[dict[int, _Final], int]:
    params = _params_for(RatingSystem.DOUBLES)
    robots = set(Player.objects.filter(is_robot=True).values_list("pk", flat=True))
    seat_relations = {
        f"s{i}": FilteredRelation("seats", condition=Q(seats__seat=i)) for i in range(4)
    }
    rows = (
        Game.objects.filter(is_pairs=True, record__status=RecordStatus.VALID)
        .annotate(**seat_relations)
        .order_by("played_at", "id")
        .values_list(
            "id",
            "played_at",
            "winner_seat",
            *(f"s{i}__{f}" for i in range(4) for f in ("player_id", "score")),
        )
        .iterator(chunk_size=5000)
    )
    ratings: dict[int, float] = {}
    counts: dict[int, int] = defaultdict(int)
    last: dict[int, tuple[int, dt.datetime]] = {}
    n = 0
    start = params.start
    for game_id, played, winner_seat, *flat in rows:
        if game_id in reverted or None in flat:
            continue
        seats = [(flat[2 * i], flat[2 * i + 1]) for i in range(4)]
        robot = any(pid in robots for pid, _ in seats)
        moved = doubles_move(seats, winner_seat, robot, lambda p: ratings.get(p, start), params)
        ratings.update(moved)
        for pid in moved:
            counts[pid] += 1
            last[pid] = (game_id, played)
        n += 1
    return (
        {
            pid: _Final(value, counts[pid], last_game=last[pid][0], last_played=last[pid][1])
            for pid, value in ratings.items()
        },
        n,
    )


def _store_recomputed(
    system: str, final: dict[int, _Final], games: int, actor: Any
) -> SystemRecompute:
    """Write one "recompute" change per player whose stored rating differs, and the ratings."""
    start = start_value(system)
    stored = {r.player_id: r for r in Rating.objects.filter(system=system)}
    changes: list[RatingChange] = []
    rows: list[Rating] = []
    for pid in final.keys() | stored.keys():
        old = stored.get(pid)
        new = final.get(pid)
        if new is None:  # every game they had was reverted: back to the start
            new = _Final(start, 0, period=old.period if old else "")
        if (
            old is not None
            and old.value == new.value
            and old.games == new.games
            and old.period == new.period
        ):
            continue
        before = old.value if old is not None else start
        changes.append(
            RatingChange(
                player_id=pid,
                system=system,
                reason=ChangeReason.RECOMPUTE,
                period=new.period,
                before=before,
                after=new.value,
                delta=new.value - before,
                games_delta=new.games - (old.games if old else 0),
                actor=_actor(actor),
                note="recomputed from the game history",
            )
        )
        rows.append(
            Rating(
                player_id=pid,
                system=system,
                value=new.value,
                games=new.games,
                period=new.period,
                last_game_id=new.last_game or (old.last_game_id if old else None),
                last_played_at=new.last_played or (old.last_played_at if old else None),
            )
        )
    RatingChange.objects.bulk_create(changes, batch_size=5000)
    Rating.objects.bulk_create(
        rows,
        batch_size=5000,
        update_conflicts=True,
        unique_fields=["player", "system"],
        update_fields=["value", "games", "period", "last_game", "last_played_at", "updated"],
    )
    return SystemRecompute(system=system, games=games, players=len(final), corrected=len(changes))


def _recompute_elo(actor: Any) -> SystemRecompute:
    """Replay every event in tournament order, anchoring after each, as the beat task does."""
    params = rating_params.elo_params()
    states = elo_event_states()
    standings: dict[int, EloRating] = {}
    results: list[EloStanding] = []
    total_games = 0
    for state in states:
        games = _event_games(state.event_id)
        total_games += len(games)
        brought = dict(standings)
        updates = elo_tournament(
            {p: s for p, s in standings.items() if s.games > 0}, games, params=params
        )
        for pid, u in updates.items():
            b = brought.get(pid, EloRating(params.initial, 0))
            standings[pid] = EloRating(u.rating, u.games)
            results.append(
                EloStanding(
                    event_id=state.event_id,
                    player_id=pid,
                    rating_before=b.rating,
                    games_before=b.games,
                    rating_after=u.rating,
                    games_after=u.games,
                    games=u.games - b.games,
                    share=u.share,
                    expected_share=u.expected_share,
                    performance=u.performance,
                    opposition_average=u.opposition_average,
                )
            )
        shift = _anchor_step(standings, params)
        if shift:
            standings = {p: EloRating(s.rating + shift, s.games) for p, s in standings.items()}
    EloStanding.objects.all().delete()
    EloStanding.objects.bulk_create(results, batch_size=5000)
    EloEvent.objects.all().delete()
    EloEvent.objects.bulk_create(
        EloEvent(
            event_id=s.event_id,
            fingerprint=s.fingerprint,
            games=s.games,
            first_played_at=s.first_played_at,
        )
        for s in states
    )
    final = {pid: _Final(s.rating, s.games) for pid, s in standings.items()}
    summary = _store_recomputed(RatingSystem.ELO, final, total_games, actor)
    return summary
