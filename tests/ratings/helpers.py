"""Games made directly in the games tables (no record replay): the ratings only read results."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from players.models import Player
from ratings.models import Rating, RatingChange

COLOURS = ["red", "yellow", "blue", "green"]
_minutes = itertools.count()
_BASE = timezone.now() - dt.timedelta(hours=40)


def next_time() -> dt.datetime:
    """Strictly increasing times within the last two days (inside the sweep window)."""
    return _BASE + dt.timedelta(minutes=next(_minutes))


def make_game(
    players: Sequence[Player],
    scores: Sequence[int],
    *,
    winner: int | None | str = "auto",
    played_at: dt.datetime | None = None,
    context: str = "casual",
    event_id: int | None = None,
    tps: Sequence[float] | None = None,
    pairs: bool = False,
    status: str = RecordStatus.VALID,
) -> Game:
    """A valid game; ``winner`` is a seat, None for a draw, "auto" for the higher score."""
    if winner == "auto":
        best = max(scores)
        winner = None if list(scores).count(best) > 1 else list(scores).index(best)
    record = GameRecord.objects.create(
        body=b"{}",
        source=RecordSource.IMPORT,
        status=status,
        seat_players=[p.pk for p in players],
        adjudicated_at=timezone.now(),
    )
    game = Game.objects.create(
        record=record,
        players_count=len(players),
        is_pairs=pairs,
        winner_seat=winner,
        is_draw=winner is None,
        end_reason="completed",
        placements=[],
        placements_count=56,
        turns=56,
        context=context,
        event_id=event_id,
        played_at=played_at or next_time(),
    )
    colours = [COLOURS[i % 2] for i in range(4)] if pairs else COLOURS
    GameSeat.objects.bulk_create(
        GameSeat(
            game=game,
            seat=i,
            player=p,
            colour=colours[i],
            score=scores[i],
            tournament_points=Decimal(str(tps[i])) if tps else None,
        )
        for i, p in enumerate(players)
    )
    return game


def rating(player: Player, system: str = "lobby") -> Rating | None:
    return Rating.objects.filter(player=player, system=system).first()


def value(player: Player, system: str = "lobby") -> float | None:
    r = rating(player, system)
    return r.value if r else None


def snapshot() -> dict[tuple[int, str], tuple[float, int, str]]:
    return {(r.player_id, r.system): (r.value, r.games, r.period) for r in Rating.objects.all()}


def assert_chains_consistent() -> None:
    """Every rating is its history. Game-by-game tables: along each timeline (game order) every
    step starts where the previous ended and each Rating row holds where it ends
    (``ratings.consistency``). The Elo (tests seed its Rating rows directly): every change
    starts where the previous one, in the order written, ended."""
    from ratings.consistency import _chains

    breaches = [b for b in _chains() if b.ids.get("system") != "elo"]
    assert not breaches, [b.message for b in breaches]
    last: dict[int, float] = {}
    for c in RatingChange.objects.filter(system="elo").order_by("id"):
        if c.player_id in last and c.reason != "recompute":
            assert c.before == last[c.player_id], f"change {c.pk} starts at {c.before}"
        assert c.delta == c.after - c.before
        last[c.player_id] = c.after


def seed(player: Player, system: str, value: float) -> None:
    """Give a player a rating in a game-by-game table through its history: an adjustment."""
    from ratings import services

    services.rating_adjust(
        actor=None, player_id=player.pk, system=system, value=value, reason="test seed"
    )
