"""Applying games: the announced games, in batches, in game order, exactly once per table."""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import Game, GameRecord, RecordStatus
from ratings.models import (
    PER_GAME_SYSTEMS,
    ChangeReason,
    PendingRating,
    RatingChange,
    RatingSystem,
    Review,
)
from ratings.notes import LATE_GAME_NOTE
from ratings.selectors import master_title_intervals, title_held_at
from ratings.services.flags import repeated_results_reviews, swing_reviews
from ratings.services.locks import lock_tables
from ratings.services.rated_games import RatedGame, game_facts, load_game_facts, load_rated_games
from ratings.services.timeline import replay_from
from ratings.services.versions import Writer


def _fault_injection_delay() -> None:
    """Wait between reading ratings and writing them, when a concurrency test asks for it.

    ``RATINGS_APPLY_DELAY_SECONDS`` is not a production setting: only the tests set it (the
    ``settings`` fixture, or tests/ratings/worker_settings.py for worker processes).
    """
    delay = getattr(settings, "RATINGS_APPLY_DELAY_SECONDS", 0)
    if delay:
        time.sleep(delay)


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
    return settings.RATINGS_APPLY_BATCH_GAMES


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
    return games_ratings_announce([game_id]) == 1


def games_ratings_announce(game_ids: list[int]) -> int:
    """Put adjudicated games on the ratings' work list, in one statement; how many were added
    (the others no table takes, or were announced before)."""
    if not game_ids:
        return 0
    qn = connection.ops.quote_name
    ids = ", ".join(["%s"] * len(game_ids))
    sql = (
        f"INSERT INTO {qn(PendingRating._meta.db_table)} (game_id, played_at, created) "
        f"SELECT g.id, g.played_at, %s FROM {qn(Game._meta.db_table)} g "
        f"INNER JOIN {qn(GameRecord._meta.db_table)} r ON r.id = g.record_id "
        f"WHERE g.id IN ({ids}) AND r.status = %s "
        "AND ((g.players_count = 2 AND NOT g.is_pairs) OR g.is_pairs) "
        "ON CONFLICT DO NOTHING"
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, *game_ids, RecordStatus.VALID])
        return cursor.rowcount


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
        batch = apply_batch(target=game_id)
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
    return apply_batch(target=game_id)


def apply_batch(
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
        lock_tables(*PER_GAME_SYSTEMS)
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


def _tables_of(game: RatedGame) -> list[str]:
    if not game.valid:
        return []
    if game.is_duel:
        return [RatingSystem.LOBBY, RatingSystem.MONTHLY, RatingSystem.MASTER]
    if game.is_pairs and len(game.seats) == 4:
        return [RatingSystem.DOUBLES]
    return []  # three- and four-player free-for-all games have no table


def _apply_games(game_ids: Sequence[int]) -> dict[int, list[str]]:
    """Insert these games into every table's timeline they count in (caller holds the locks);
    returns the tables each moved.

    A game later than every other game of its players is simply appended; one that arrives
    after later games of its players is inserted in its place and the table is replayed forward
    from there (``timeline.replay_from``), so the stored ratings always equal a replay of the
    history in game order. Reads: the games and seats, the changes they already made, reverts
    of those, the Master titles of their players, the table's timeline from the earliest game.
    Writes: the changes, the Rating rows (one upsert per table), the review flags.
    """
    games = sorted(load_rated_games(game_ids).values(), key=lambda g: (g.played_at, g.id))
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
    masters = master_title_intervals(player_ids=title_players) if title_players else {}
    by_table: dict[str, list[RatedGame]] = defaultdict(list)
    for game, tables in plan:
        for system in tables:
            if system == RatingSystem.MASTER and not (
                game.context == "master"
                or all(
                    title_held_at(masters.get(s.player_id, ()), game.played_at) for s in game.seats
                )
            ):
                continue
            by_table[system].append(game)
    _fault_injection_delay()

    created: list[RatingChange] = []
    decisive: list[
        tuple[RatedGame, int, int, RatingChange]
    ] = []  # lobby wins, for repeated results
    for system in PER_GAME_SYSTEMS:
        table_games = by_table.get(system)
        if not table_games:
            continue
        outcome = replay_from(
            system,
            since=[(g.played_at, 0, g.id) for g in table_games],
            new_games=[game_facts(g) for g in table_games],
            load_games=load_game_facts,
            writer=Writer(system, note=LATE_GAME_NOTE, copy_versions=True),
        )
        made = defaultdict(dict)
        for change in outcome.created:
            made[change.game_id][change.player_id] = change
        for game in table_games:
            moved[game.id].append(system)
            if system == RatingSystem.LOBBY and game.winner_seat is not None:
                winner = game.seats[game.winner_seat].player_id
                loser = game.seats[1 - game.winner_seat].player_id
                decisive.append((game, winner, loser, made[game.id][winner]))
        created.extend(outcome.created)

    reviews = swing_reviews(created) + repeated_results_reviews(decisive)
    if reviews:
        Review.objects.bulk_create(reviews)
    return moved
