"""Random self-play: complete, legal ``tantrix-game/1`` records for tests and benchmarks.

Every choice is uniform among the legal moves of the moment (forced fills while there are any,
otherwise every legal placement), so the games meet forced stages, controlled sides (the
placements R3 removes from the choice) and the endgame as they come. The same seed always gives
the same record.

A seat named in ``greedy`` plays a little better than at random: among the legal moves it takes
one that makes the path of its own colour through the new tile longest (ties at random). Against
a random seat it usually wins, by many tiles; the demo uses it to give its strong players the
results strong players have (tournaments/demo/).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from .board import Board
from .lines import find_root
from .record import FORMAT
from .tables import COLOUR_NAMES, DELTAS, HAND_SIZE, NAME_BIT, PATH_SIDES, TILE_COUNT

PLAYER_CHOICES = ("2", "3", "4", "pairs")
_NAMES = ("ingrid", "tomas", "ana", "bela")


def selfplay(seed: int, players: str = "2", greedy: Collection[int] = ()) -> dict[str, Any]:
    """Play one random game; return its record (with ``claimed_scores`` equal to the scores).
    The seats in ``greedy`` (0-based) choose their moves greedily (see the module's text); with
    none, the game is the same as it always was for this seed."""
    if type(seed) is not int:
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if players not in PLAYER_CHOICES:
        raise ValueError(f"players must be one of 2, 3, 4, pairs, got {players!r}")
    rng = random.Random(seed)
    seats = 4 if players in ("4", "pairs") else int(players)
    if players == "pairs":
        team_a, team_b = rng.sample(COLOUR_NAMES, 2)
        colours = [team_a, team_b, team_a, team_b]
    else:
        colours = rng.sample(COLOUR_NAMES, seats)
    tiles = list(range(1, TILE_COUNT + 1))
    rng.shuffle(tiles)
    hands = [tiles[HAND_SIZE * seat : HAND_SIZE * (seat + 1)] for seat in range(seats)]
    bag = tiles[HAND_SIZE * seats :]

    game = _Game(
        colours, hands, bag, rng, greedy={seat: NAME_BIT[colours[seat]] for seat in greedy}
    )
    end = game.play()
    scores = [game.board.best(NAME_BIT[colour]).score for colour in colours]
    return {
        "format": FORMAT,
        "players": [{"name": _NAMES[seat], "colour": colours[seat]} for seat in range(seats)],
        "hands": hands,
        "bag": bag,
        "placements": game.placements,
        "end": {"reason": end},
        "claimed_scores": scores,
        "event": f"selfplay seed {seed} ({players})",
    }


class _Game:
    def __init__(
        self,
        colours: list[str],
        hands: list[list[int]],
        bag: list[int],
        rng: random.Random,
        greedy: dict[int, int] | None = None,
    ) -> None:
        self.board = Board(colours=dict.fromkeys(NAME_BIT[colour] for colour in colours))
        self.hands = [list(hand) for hand in hands]
        self.bag = bag
        self.drawn = 0
        self.rng = rng
        self.placements: list[dict[str, int]] = []
        # seat -> its colour bit, for the seats that choose greedily
        self.greedy = greedy or {}

    def choose(self, seat: int, moves: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        colour = self.greedy.get(seat)
        if colour is None or len(moves) == 1:
            return self.rng.choice(moves)
        best: list[tuple[int, int, int]] = []
        longest = -1
        for move in moves:
            length = self._joined(move, colour)
            if length > longest:
                best, longest = [move], length
            elif length == longest:
                best.append(move)
        return self.rng.choice(best)

    def _joined(self, move: tuple[int, int, int], colour: int) -> int:
        """How long the path of ``colour`` through the new tile would be (0: not on it)."""
        cell, tile, rotation = move
        sides = PATH_SIDES[tile][rotation].get(colour)
        if sides is None:
            return 0
        parent, size, _loops = self.board._paths[colour]
        word_at = self.board.word_at
        roots = {
            find_root(parent, cell + DELTAS[side]) for side in sides if word_at[cell + DELTAS[side]]
        }
        return 1 + sum(size[root] for root in roots)

    @property
    def restricted(self) -> bool:
        return self.drawn < len(self.bag)

    def put(self, seat: int, move: tuple[int, int, int]) -> None:
        cell, tile, rotation = move
        self.board.place(cell, tile, rotation)
        q, r = self.board.coords(cell)
        self.placements.append({"player": seat, "tile": tile, "q": q, "r": r, "rotation": rotation})
        hand = self.hands[seat]
        hand.remove(tile)
        if self.drawn < len(self.bag):
            hand.append(self.bag[self.drawn])
            self.drawn += 1

    def fill_all(self, seat: int) -> None:
        """A forced stage: fill forced spaces while the mover legally can."""
        while self.hands[seat]:
            fills = list(self.board.forced_fills(self.hands[seat], self.restricted))
            if not fills:
                return
            self.put(seat, self.choose(seat, fills))

    def play(self) -> str:
        seats = len(self.hands)
        mover = 0
        while any(self.hands):
            if self.hands[mover]:
                self.fill_all(mover)
                if self.hands[mover]:
                    moves = list(self.board.placements(self.hands[mover], self.restricted))
                    if not moves:
                        return "deadlock"
                    self.put(mover, self.choose(mover, moves))
                    self.fill_all(mover)
            mover = (mover + 1) % seats
        return "completed"
