"""One game's moves in the lobby-style tables, from plain numbers: a two-player game (lobby,
monthly, Master) and a pairs game (doubles).

The Django side reads a game's seats and calls these; the recompute replays the same games
through ``recompute_lobby`` with the tuples ``Duel.game`` gives, so both paths compute the same
floats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .lobby import LobbyParams, doubles_draw, doubles_update, lobby_draw, lobby_update
from .recompute import ScoredGame, WonGame

__all__ = ["Duel", "doubles_move", "duel_move", "duel_tuple"]


@dataclass(frozen=True, slots=True)
class Duel:
    """A two-player game: ``first`` beat ``second`` by ``margin`` tiles, or drew with them.

    The winner is the adjudicated winner (a resignation or a loss on time may be won with the
    lower score), by the tile margin but at least 1; a game without a winner is a draw.
    """

    first: int
    second: int
    margin: int  # at least 1 for a win; 0 for a draw
    robot: bool
    draw: bool

    @classmethod
    def of(cls, p0: int, s0: int, p1: int, s1: int, winner_seat: int | None, robot: bool) -> Duel:
        """The game of seat 0 (player ``p0``, score ``s0``) against seat 1."""
        if winner_seat is None:
            return cls(p0, p1, 0, robot, draw=True)
        if winner_seat == 0:
            return cls(p0, p1, max(1, s0 - s1), robot, draw=False)
        return cls(p1, p0, max(1, s1 - s0), robot, draw=False)

    @property
    def winner(self) -> int | None:
        return None if self.draw else self.first

    @property
    def loser(self) -> int | None:
        return None if self.draw else self.second

    @property
    def game(self) -> WonGame | ScoredGame:
        """The game as ``recompute_lobby`` takes it."""
        if self.draw:
            return (self.first, self.second, 0, 0, self.robot)
        return (self.first, self.second, self.margin, self.robot)


def duel_tuple(
    p0: int, s0: int, p1: int, s1: int, winner_seat: int | None, robot: bool
) -> WonGame | ScoredGame:
    """``Duel.of(...).game`` without the object: the recompute replays half a million games
    through this, so it builds the tuple directly (a test holds the two together)."""
    if winner_seat is None:
        return (p0, p1, 0, 0, robot)
    if winner_seat == 0:
        return (p0, p1, max(1, s0 - s1), robot)
    return (p1, p0, max(1, s1 - s0), robot)


def duel_move(duel: Duel, before: Callable[[int], float], params: LobbyParams) -> dict[int, float]:
    """New ratings after a two-player game, exactly as ``recompute_lobby`` computes them."""
    a, b = duel.first, duel.second
    if duel.draw:
        new_a, new_b = lobby_draw(before(a), before(b), robot=duel.robot, params=params)
    else:
        new_a, new_b = lobby_update(
            before(a), before(b), duel.margin, robot=duel.robot, params=params
        )
    return {a: new_a, b: new_b}


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
