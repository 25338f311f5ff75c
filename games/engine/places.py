"""Where a tile lies and how it is turned, in the words of a player rather than in (q, r).

A record names a cell by its axial coordinates and a turn by a number of sixth-turns
(../shared/spec/rules.md, "Geometry"). A player sees neither: they see the board grow from the
first tile, and a tile turned. So a cell is told as a short walk from the first tile along the
grid's six compass directions (flat-topped hexagons: north, north-east, south-east, south,
south-west, north-west, clockwise from the top, the spec's edge order):

- the first tile's own cell;
- ``n`` steps straight along one direction ("2 steps north");
- or ``n`` steps along one direction, then ``m`` along the next one clockwise ("2 steps north
  then 1 north-east").

Every cell of the grid is reached by exactly one such walk (the two directions of a walk span the
sixth of the plane the cell lies in; a cell on the border between two sixths is reached straight),
so two different cells never read the same, and ``steps + more`` is the cell's ring (its distance
from the first tile). A turn is told in degrees clockwise, 60 per sixth-turn.

The engine's verdict message keeps (q, r) and "rotation k": the spec's example verdicts pin it
word for word, and programs read it. `in_words` rewrites those parts of an engine message for a
person reading English; other languages build their sentence from the same parts
(games/records/verdicts.py). Pure and Django-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Offsets (dq, dr) of the six neighbours, clockwise from the top (the spec's edge order).
STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS: tuple[str, ...] = (
    "north",
    "north-east",
    "south-east",
    "south",
    "south-west",
    "north-west",
)


@dataclass(frozen=True)
class Place:
    """A cell as a walk from the first tile: ``steps`` towards ``direction`` (an index into
    DIRECTIONS), then ``more`` towards the next direction clockwise. The first tile's own cell is
    ``steps == 0`` (and ``direction`` is then meaningless)."""

    steps: int
    direction: int
    more: int

    @property
    def ring(self) -> int:
        """The distance from the first tile, in spaces."""
        return self.steps + self.more

    @property
    def more_direction(self) -> int:
        return (self.direction + 1) % 6


def place(dq: int, dr: int) -> Place:
    """The walk to the cell (dq, dr) away from the first tile."""
    if dq == 0 and dr == 0:
        return Place(0, 0, 0)
    for i in range(6):
        (x1, y1), (x2, y2) = STEPS[i], STEPS[(i + 1) % 6]
        det = x1 * y2 - y1 * x2  # always ±1: two neighbouring steps form a basis of the grid
        steps = (dq * y2 - dr * x2) * det
        more = (x1 * dr - y1 * dq) * det
        if steps > 0 and more >= 0:
            return Place(steps, i, more)
    raise AssertionError("unreachable: the six sixths cover the plane")


def place_from(q: int, r: int, first: tuple[int, int]) -> Place:
    """The walk to cell (q, r) from the cell ``first`` of the record's first tile."""
    return place(q - first[0], r - first[1])


def degrees(rotation: int) -> int:
    """A rotation (sixth-turns clockwise) in degrees clockwise."""
    return (rotation % 6) * 60


def english_place(where: Place) -> str:
    """The engine's words for a place: "on the first tile's space", "2 steps north of the first
    tile", "2 steps north then 1 north-east of the first tile"."""
    if where.steps == 0:
        return "on the first tile's space"
    text = f"{where.steps} step{'s' if where.steps != 1 else ''} {DIRECTIONS[where.direction]}"
    if where.more:
        text += f" then {where.more} {DIRECTIONS[where.more_direction]}"
    return text + " of the first tile"


def english_turn(rotation: int) -> str:
    """The engine's words for a rotation: "not turned", "turned 120° clockwise"."""
    turn = degrees(rotation)
    return "not turned" if turn == 0 else f"turned {turn}° clockwise"


# The engine's ways of naming a cell and a turn (games/engine/literal.py): "tile 31 at q=-2 r=2,
# rotation 3", "the forced space at q=-1 r=0", "tile 23 fits it, rotation 0". A coordinate too
# long to print reads "a 5000-bit number" there, matches nothing here, and stays as it is.
_ENGINE_CELL = re.compile(
    r"tile (?P<tile>\d+) at q=(?P<tq>-?\d+) r=(?P<tr>-?\d+)(?:, rotation (?P<trot>[0-5]))?"
    r"|at q=(?P<q>-?\d+) r=(?P<r>-?\d+)"
    r"|(?P<fits>fits(?: it)?), rotation (?P<rot>[0-5])"
)


def in_words(message: str, first: tuple[int, int]) -> str:
    """An engine message with its cells and rotations in words, cells told from ``first`` (the
    cell of the record's first tile)."""

    def say(match: re.Match[str]) -> str:
        if match["tile"] is not None:
            text = f"tile {match['tile']}, "
            text += english_place(place_from(int(match["tq"]), int(match["tr"]), first))
            if match["trot"] is not None:
                text += f", {english_turn(int(match['trot']))}"
            return text
        if match["q"] is not None:
            return english_place(place_from(int(match["q"]), int(match["r"]), first))
        return f"{match['fits']}, {english_turn(int(match['rot']))}"

    return _ENGINE_CELL.sub(say, message)
