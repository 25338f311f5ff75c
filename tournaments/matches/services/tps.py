"""A counted game's tournament points: per side from the game's scores, and on its seats.

Counting a game (`results`) and recounting it after a new ruling (`matches.reporting`) both
use these."""

from __future__ import annotations

from decimal import Decimal

from games.models import Game, GameSeat
from tournaments import formats
from tournaments.models import MatchGame


def game_tps(game: Game, seats: list[GameSeat], scheme: int) -> tuple[Decimal, Decimal]:
    """TPs per seat of the first two seats (seat order): a two-player game's two players, or a
    pairs game's two pairs (seats 0 and 2 share a colour and its score, as 1 and 3 do)."""
    a, b = seats[0].score, seats[1].score
    tps = formats.game_tps(a, b, scheme)
    winner_side = None if game.winner_seat is None else game.winner_seat % 2
    if game.end_reason in ("resigned", "time") and winner_side is not None:
        # The side that resigned or lost on time loses: the winner gets the TPs of the tile
        # margin, and at least those of a one-tile win (house rule; docs/architecture.md,
        # "Tournaments").
        margin = max(1, abs(a - b))
        winner_tps, loser_tps = formats.tps_for_margin(margin, scheme)
        tps = (winner_tps, loser_tps) if winner_side == 0 else (loser_tps, winner_tps)
    return tps


def write_seat_tps(match_game: MatchGame) -> None:
    """Each seat carries its side's TPs (both partners of a pair the pair's)."""
    seat_a = match_game.seat_a
    GameSeat.objects.filter(game_id=match_game.game_id, seat__in=[seat_a, seat_a + 2]).update(
        tournament_points=match_game.tps_a
    )
    GameSeat.objects.filter(game_id=match_game.game_id, seat__in=[1 - seat_a, 3 - seat_a]).update(
        tournament_points=match_game.tps_b
    )
