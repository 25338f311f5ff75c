"""Scoring on the board: the lines and loops of each colour in play.

Per colour in play the board keeps a union-find over the tiles linked by that colour, updated
as each tile goes down (``ColourPaths._link``, called by ``Board.place``), so the longest line
and the largest loop are known at every moment without a recount (``best``), and the cells of a
scoring path can be named for the replay viewer (``path_cells``). Moved out of ``board.py``
(issue 27: a module over 500 lines); the code is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .tables import DELTAS, PATH_SIDES


class Line(NamedTuple):
    """The best line and the best loop of one colour, in tiles."""

    line: int
    loop: int

    @property
    def score(self) -> int:
        # rules.md: the better of the longest line or twice the largest loop, never the sum.
        return max(self.line, 2 * self.loop)


def line_report(best: Line) -> dict[str, int | str]:
    """The verdict's ``lines`` entry for one colour: the kind and size of what scores.

    A loop that scores the same as the longest line is reported as the loop (docs/rules.md);
    a colour with no tile on the board is a line of 0.
    """
    if best.loop and 2 * best.loop >= best.line:
        return {"kind": "loop", "tiles": best.loop}
    return {"kind": "line", "tiles": best.line}


def find_root(parent: dict[int, int], cell: int) -> int:
    """The root of `cell`'s set in a union-find forest (public: self-play's greedy seat
    measures its paths with the same forest)."""
    while True:
        up = parent[cell]
        if up == cell:
            return cell
        top = parent[up]
        parent[cell] = top  # path halving keeps later finds short
        cell = top


class ColourPaths:
    """The union-find of each tracked colour; the board that extends it keeps ``word_at``."""

    __slots__ = ("_paths",)

    word_at: list[int]

    def __init__(self, colours: Iterable[int] = ()) -> None:
        # colour bit -> (parent, size, loop roots) of the union-find over that colour's paths
        self._paths: dict[int, tuple[dict[int, int], dict[int, int], set[int]]] = {
            bit: ({}, {}, set()) for bit in colours
        }

    def _link(self, cell: int, tile: int, rotation: int) -> None:
        word_at = self.word_at
        for bit, sides in PATH_SIDES[tile][rotation].items():
            paths = self._paths.get(bit)
            if paths is None:
                continue
            parent, size, loops = paths
            parent[cell] = cell
            size[cell] = 1
            root = cell
            for side in sides:
                near = cell + DELTAS[side]
                if not word_at[near]:
                    continue
                # Colours match across every shared edge, so the neighbour's path of this
                # colour ends on this edge too: the two paths join.
                other = find_root(parent, near)
                if other == root:
                    loops.add(root)
                elif size[other] > size[root]:
                    parent[root] = other
                    size[other] += size[root]
                    root = other
                else:
                    parent[other] = root
                    size[root] += size[other]

    # ----------------------------------------------------------------- scoring
    def path_cells(self, colour: int, *, loop: bool, tiles: int) -> list[int]:
        """The cells of a path of a tracked colour, a loop or a line of `tiles` tiles (the
        replay viewer outlines what scores); several may tie, the first found stands for them
        all. Empty when no such path is on the board."""
        if not tiles:
            return []
        parent, size, loops = self._paths[colour]
        for root, up in parent.items():
            if up == root and (root in loops) == loop and size[root] == tiles:
                return [cell for cell in list(parent) if find_root(parent, cell) == root]
        return []

    def best(self, colour: int) -> Line:
        """Longest line and largest loop of a tracked colour, from the union-find."""
        parent, size, loops = self._paths[colour]
        line = loop = 0
        for cell, up in parent.items():
            if up == cell:
                if cell in loops:
                    loop = max(loop, size[cell])
                else:
                    line = max(line, size[cell])
        return Line(line, loop)
