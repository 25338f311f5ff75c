"""Recomputing tables from the whole history.

The game-by-game tables (lobby, monthly, doubles, Master) are replayed from their first event
with ``ratings.systems.replay``, the loop the live system runs from a late game's place, without
trusting anything stored: every step that differs from the stored timeline gets a new version
(reason ``replay``) and every Rating row that differs is set. On a live database nothing differs
(docs/ratings.md §11). The Elo replays every event in tournament order, anchoring after each.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import FilteredRelation, Q
from django.utils.translation import gettext as _
from tqdm import tqdm

from games.models import Game, RecordStatus
from players.models import Player
from players.types import User
from ratings import params as rating_params
from ratings.models import (
    PER_GAME_SYSTEMS,
    AuditAction,
    ChangeReason,
    EloEvent,
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
)
from ratings.notes import RECOMPUTE_NOTE
from ratings.selectors import (
    both_seats,
    elo_event_games,
    elo_event_states,
    master_title_intervals,
    title_held_at,
)
from ratings.services.audit import acting_user, rating_audit
from ratings.services.changes import start_value
from ratings.services.locks import lock_tables
from ratings.services.timeline import (
    GameFacts,
    adjustments,
    fetched,
    merge_events,
    reverted_origins,
    streamed_instant,
    timeline_rows,
)
from ratings.services.versions import Writer, store_ratings
from ratings.systems import EloRating, anchor_step, elo_tournament
from ratings.systems.replay import Standing, replay


@dataclass
class SystemRecompute:
    system: str
    games: int = 0  # events replayed (games, adjustments, reverted events)
    players: int = 0
    corrected: int = 0  # players whose rating row was set
    steps: int = 0  # steps stored anew (new versions, or first versions of unrated games)


@dataclass
class Recompute:
    systems: dict[str, SystemRecompute] = field(default_factory=dict)
    seconds: float = 0.0


ProgressHook = Callable[[str, int], None]  # (table, events replayed so far)


def ratings_recompute(
    *,
    systems: Sequence[str] | None = None,
    actor: User | None = None,
    progress: bool = False,
    on_progress: ProgressHook | None = None,
    chunk_size: int = 20_000,
) -> Recompute:
    """Recompute tables from the whole history and store what differs.

    Game-by-game tables: every game (in game order: played time, then id), adjustment and
    reverted event is replayed from the start; a step that differs from its stored version gets
    a new version, a game never rated gets its first one, and each Rating row is set to where
    the player's timeline ends. On a live database nothing differs: the live system stores
    exactly what this replay computes. Run it after a new parameter-set version. The tables are
    locked for the duration, so no game is applied meanwhile. ``progress`` shows a terminal bar;
    ``on_progress(table, events)`` is called every few thousand events (the Celery task's
    status).
    """
    wanted = list(dict.fromkeys(systems or RatingSystem.values))
    for system in wanted:
        if system not in RatingSystem.values:
            raise ValidationError(
                {"system": _("Unknown table %(table)s.") % {"table": repr(system)}}
            )
    began = time.perf_counter()
    result = Recompute()
    with transaction.atomic():
        # A recompute may wait for the batch in progress, but not forever either.
        lock_tables(*wanted, wait_seconds=settings.RATINGS_RECOMPUTE_LOCK_WAIT_SECONDS)
        for system in (s for s in PER_GAME_SYSTEMS if s in wanted):
            result.systems[system] = _recompute_table(
                system,
                actor=actor,
                chunk_size=chunk_size,
                progress=_progress_wrapper(system, progress, on_progress),
            )
        if RatingSystem.ELO in wanted:
            result.systems[RatingSystem.ELO] = _recompute_elo(actor)
            if on_progress is not None:
                on_progress(RatingSystem.ELO, result.systems[RatingSystem.ELO].games)
        result.seconds = time.perf_counter() - began
        rating_audit(
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


def _progress_wrapper(
    system: str, bar: bool, hook: ProgressHook | None
) -> Callable[[Iterable[GameFacts]], Iterable[GameFacts]] | None:
    if not bar and hook is None:
        return None

    def wrap(games: Iterable[GameFacts]) -> Iterator[GameFacts]:
        label = RatingSystem(system).label
        for done, game in enumerate(
            tqdm(games, desc=f"{label}: games", unit="game", unit_scale=True, disable=not bar), 1
        ):
            if hook is not None and done % 5000 == 0:
                hook(system, done)
            yield game
        if hook is not None:
            hook(system, done if "done" in locals() else 0)

    return wrap


def _duel_facts(
    chunk_size: int, before_fetch: Callable[[], None] | None = None
) -> Iterator[GameFacts]:
    """Every two-player game in game order, both seats on one row: one streamed query. Games
    whose record is no longer valid come too: they stay in the history while they have rated
    steps (until an admin reverts them); such a game without them does not enter."""
    robots = set(Player.objects.filter(is_robot=True).values_list("pk", flat=True))
    games, played_at, instant = streamed_instant(
        Game.objects.filter(players_count=2, is_pairs=False), "played_at"
    )
    rows = (
        games.annotate(**both_seats())
        .order_by("played_at", "id")
        .values_list(
            "id",
            played_at,
            "winner_seat",
            "context",
            "record__status",
            "first__player_id",
            "first__score",
            "second__player_id",
            "second__score",
        )
    )
    for game_id, played, winner_seat, context, status, p0, s0, p1, s1 in fetched(
        rows, chunk_size, before_fetch
    ):
        if p0 is None or p1 is None:
            continue
        yield GameFacts(
            id=game_id,
            played_at=instant(played),
            winner_seat=winner_seat,
            robot=p0 in robots or p1 in robots,
            seats=((p0, s0), (p1, s1)),
            valid=status == RecordStatus.VALID,
            context=context,
        )


def _pairs_facts(
    chunk_size: int, before_fetch: Callable[[], None] | None = None
) -> Iterator[GameFacts]:
    """Every pairs game in game order, its four seats on one row."""
    robots = set(Player.objects.filter(is_robot=True).values_list("pk", flat=True))
    seat_relations = {
        f"s{i}": FilteredRelation("seats", condition=Q(seats__seat=i)) for i in range(4)
    }
    games, played_at, instant = streamed_instant(Game.objects.filter(is_pairs=True), "played_at")
    rows = (
        games.annotate(**seat_relations)
        .order_by("played_at", "id")
        .values_list(
            "id",
            played_at,
            "winner_seat",
            "record__status",
            *(f"s{i}__{f}" for i in range(4) for f in ("player_id", "score")),
        )
    )
    for game_id, played, winner_seat, status, *flat in fetched(rows, chunk_size, before_fetch):
        if None in flat:
            continue
        seats = tuple((flat[2 * i], flat[2 * i + 1]) for i in range(4))
        yield GameFacts(
            id=game_id,
            played_at=instant(played),
            winner_seat=winner_seat,
            robot=any(pid in robots for pid, _ in seats),
            seats=seats,
            valid=status == RecordStatus.VALID,
        )


def _counts_in(system: str) -> Callable[[GameFacts], bool]:
    """Whether a game not rated yet enters the table: valid, and for the Master ranking played
    in a Master context or between two players holding the title at the time."""
    if system != RatingSystem.MASTER:
        return lambda game: game.valid
    masters = master_title_intervals()

    def counts(game: GameFacts) -> bool:
        return game.valid and (
            game.context == "master"
            or all(title_held_at(masters.get(pid, ()), game.played_at) for pid, _ in game.seats)
        )

    return counts


def table_replay(
    system: str,
    *,
    writer: Writer,
    chunk_size: int = 20_000,
    progress: Callable[[Iterable[GameFacts]], Iterable[GameFacts]] | None = None,
) -> dict[int, Standing]:
    """Replay one game-by-game table from its first event without trusting anything stored,
    handing every event to ``writer`` (which stores what differs, or only counts it); returns
    every player's standing at the end. The recompute and the consistency check run this; the
    live system runs the same loop (``ratings.systems.replay``) from a late game's place."""
    # A writer that streams its rows (the recompute) keeps a COPY open on the connection: it
    # is ended before each chunk of the two streamed reads is fetched.
    pause = writer.pause if isinstance(writer, Writer) and writer.stream else None
    facts = _pairs_facts if system == RatingSystem.DOUBLES else _duel_facts
    games: Iterable[GameFacts] = facts(chunk_size, pause)
    if progress is not None:
        games = progress(games)
    known: dict[int, Standing] = {}
    events = merge_events(
        system,
        games,
        timeline_rows(system, chunk_size=chunk_size, before_fetch=pause),
        adjustments(system),
        void=reverted_origins(system),
        counts=_counts_in(system),
    )
    try:
        for replayed in replay(
            events,
            rating_params.table_params(system),
            known=known,
            monthly=system == RatingSystem.MONTHLY,
            trust_stored=False,
        ):
            writer.take(replayed)
    except BaseException as error:
        if pause is not None:
            pause(error)
        raise
    if pause is not None:
        pause()
    return known


def ratings_to_set(
    system: str, known: dict[int, Standing], touched: set[int]
) -> dict[int, Standing]:
    """The Rating rows a replay's ending standings correct: those that differ (or whose player's
    steps were stored anew), and those missing."""
    start = start_value(system)
    fixed: dict[int, Standing] = {}
    remaining = dict(known)
    for pid, value, games, period in Rating.objects.filter(system=system).values_list(
        "player_id", "value", "games", "period"
    ):
        standing = remaining.pop(pid, None) or Standing(start, 0, period)
        if pid in touched or (value, games, period) != (
            standing.value,
            standing.games,
            standing.period,
        ):
            fixed[pid] = standing
    fixed.update(remaining)  # a history and no Rating row yet
    return fixed


def _recompute_table(
    system: str,
    *,
    actor: User | None,
    chunk_size: int,
    progress: Callable[[Iterable[GameFacts]], Iterable[GameFacts]] | None,
) -> SystemRecompute:
    writer = Writer(
        system, actor=actor, note=RECOMPUTE_NOTE, flush_every=20_000, copy=True, stream=True
    )
    known = table_replay(system, writer=writer, chunk_size=chunk_size, progress=progress)
    writer.flush()
    fixed = ratings_to_set(system, known, writer.touched)
    store_ratings(system, fixed, writer.last_game)
    return SystemRecompute(
        system=system,
        games=writer.outcome.events_replayed,
        players=len(known),
        corrected=len(fixed),
        steps=writer.written,
    )


def _recompute_elo(actor: User) -> SystemRecompute:
    """Replay every event in tournament order, anchoring after each, as the beat task does.

    Manual Elo adjustments (not reverted) are part of the history too: each is applied, by the
    delta it made, before the first event whose first game was played after it."""
    params = rating_params.elo_params()
    states = elo_event_states()
    standings: dict[int, EloRating] = {}
    results: list[EloStanding] = []
    total_games = 0
    pending = list(
        RatingChange.objects.filter(
            system=RatingSystem.ELO, reason=ChangeReason.ADJUSTMENT, reverted_by__isnull=True
        )
        .order_by("created", "id")
        .values_list("created", "player_id", "delta")
    )

    def adjust_until(moment) -> None:
        while pending and (moment is None or pending[0][0] < moment):
            _, pid, delta = pending.pop(0)
            old = standings.get(pid, EloRating(params.initial, 0))
            standings[pid] = EloRating(old.rating + delta, old.games)

    for state in states:
        adjust_until(state.first_played_at)
        games = elo_event_games(state.event_id)
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
        shift = anchor_step(standings.values(), params)
        if shift:
            standings = {p: EloRating(s.rating + shift, s.games) for p, s in standings.items()}
    adjust_until(None)
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
    return _store_elo(standings, total_games, actor)


def _store_elo(final: dict[int, EloRating], games: int, actor: User | None) -> SystemRecompute:
    """One "recompute" change per player whose stored Elo differs, and the Rating rows."""
    system = RatingSystem.ELO
    start = start_value(system)
    stored = {r.player_id: r for r in Rating.objects.filter(system=system)}
    changes: list[RatingChange] = []
    rows: list[Rating] = []
    for pid in final.keys() | stored.keys():
        old = stored.get(pid)
        new = final.get(pid) or EloRating(start, 0)  # every game they had was reverted
        if old is not None and (old.value, old.games) == (new.rating, new.games):
            continue
        before = old.value if old is not None else start
        changes.append(
            RatingChange(
                player_id=pid,
                system=system,
                reason=ChangeReason.RECOMPUTE,
                before=before,
                after=new.rating,
                delta=new.rating - before,
                games_delta=new.games - (old.games if old else 0),
                actor=acting_user(actor),
                note=RECOMPUTE_NOTE,
            )
        )
        rows.append(Rating(player_id=pid, system=system, value=new.rating, games=new.games))
    RatingChange.objects.bulk_create(changes, batch_size=5000)
    Rating.objects.bulk_create(
        rows,
        batch_size=5000,
        update_conflicts=True,
        unique_fields=["player", "system"],
        update_fields=["value", "games", "updated"],
    )
    return SystemRecompute(system=system, games=games, players=len(final), corrected=len(changes))
