"""Recomputing tables from the whole game history."""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import FilteredRelation, Q

from games.models import Game, RecordStatus
from players.models import Player
from ratings import params as rating_params
from ratings.models import (
    AuditAction,
    ChangeReason,
    EloEvent,
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
)
from ratings.selectors import (
    both_seats,
    elo_event_games,
    elo_event_states,
    game_period,
    master_title_intervals,
    title_held_at,
)
from ratings.services.changes import _actor, _audit, _params_for, _reverted_game_ids, start_value
from ratings.services.elo import _anchor_step
from ratings.services.locks import _lock
from ratings.systems import (
    EloRating,
    doubles_move,
    duel_tuple,
    elo_tournament,
    recompute_lobby,
)

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
        .annotate(**both_seats())
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
    masters = master_title_intervals() if want_master else {}
    by_period: dict[str, list[tuple]] = defaultdict(list)
    master_games: list[tuple] = []
    last: dict[int, tuple[int, dt.datetime]] = {}
    last_in_period: dict[str, dict[int, tuple[int, dt.datetime]]] = defaultdict(dict)
    master_last: dict[int, tuple[int, dt.datetime]] = {}
    counted = [0]

    def duels() -> Iterator[tuple]:
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
                    and title_held_at(masters[p0], played)
                    and title_held_at(masters[p1], played)
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
