"""The fast replay's score: the longest line and the largest loop of a colour, walked once on
the fast board's grid (``fastboard``: a tile is ``tr = tile * 6 + rotation``, a cell an integer,
``cell + DELTAS[i]`` its neighbour in direction i).
"""

from __future__ import annotations

from .fastboard import DELTAS, TR_SIZE
from .tables import PATH_SIDES

# EXIT[tr][e]: the other edge of the path that enters the tile at edge e.
EXIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next(b if a == e else a for a, b in PATH_SIDES[tr // 6][tr % 6].values() if e in (a, b))
        for e in range(6)
    )
    if tr >= 6
    else ()
    for tr in range(TR_SIZE)
)
# ENDS[tr]: colour bit -> the two edges of that colour's path.
ENDS: tuple[dict[int, tuple[int, int]], ...] = tuple(
    PATH_SIDES[tr // 6][tr % 6] if tr >= 6 else {} for tr in range(TR_SIZE)
)

OPPOSITE = (3, 4, 5, 0, 1, 2)

# PATH_OUT[colour bit][tr], PATH_BACK[colour bit][tr]: the two edges of that colour's path (6:
# no such path). The score walk's tables are bytes, one byte an entry (indexing one gives a
# cached small int), so that a walk reads a few cache lines where tuples of pointers spread it
# over many: after other work (the literal engine, a request) the walk found them out of the
# CPU's caches and took twice as long as when it ran alone.
PATH_OUT: dict[int, bytes] = {
    colour: bytes(ENDS[tr][colour][0] if colour in ENDS[tr] else 6 for tr in range(TR_SIZE))
    for colour in (1, 2, 4, 8)
}
PATH_BACK: dict[int, bytes] = {
    colour: bytes(ENDS[tr][colour][1] if colour in ENDS[tr] else 6 for tr in range(TR_SIZE))
    for colour in (1, 2, 4, 8)
}
# GOES_ON[tr * 6 + e]: leaving a tile by edge e into tile tr, the edge by which the path leaves tr.
GOES_ON: bytes = bytes(
    EXIT[index // 6][OPPOSITE[index % 6]] if index >= 36 else 0 for index in range(TR_SIZE * 6)
)


def best(
    colour: int,
    cells: list[int],
    tr_at: list[int],
    marks: list[int],
    path_out: dict[int, bytes] = PATH_OUT,
    path_back: dict[int, bytes] = PATH_BACK,
    goes_on: bytes = GOES_ON,
    deltas: tuple[int, ...] = DELTAS,
) -> tuple[int, int]:
    """(longest line, largest loop) of one colour, walking each path once.

    From the first tile of a path met, one way until the path stops (a line: then the other
    way too) or comes back (a loop). The tables are default arguments: locals are the cheapest
    names to read in the walk.

    A walked tile is marked on ``marks`` (the replay's ``cl``, which it no longer needs and
    ``grids_give`` zeroes) with ``-colour``, a value no ``cl`` holds (they are all >= 0): a
    list store instead of ``set.add`` calls and a set grown to 56 entries.
    """
    outs = path_out[colour]
    seen = -colour
    line = loop = 0
    for start in cells:
        if marks[start] == seen:
            continue
        out = outs[tr_at[start]]
        if out > 5:
            continue
        marks[start] = seen
        count = 1
        cell = start + deltas[out]
        tr = tr_at[cell]
        while tr:
            if cell == start:
                break  # round to the first tile: a loop
            marks[cell] = seen
            count += 1
            out = goes_on[tr * 6 + out]
            cell += deltas[out]
            tr = tr_at[cell]
        else:
            out = path_back[colour][tr_at[start]]
            cell = start + deltas[out]
            tr = tr_at[cell]
            while tr:
                marks[cell] = seen
                count += 1
                out = goes_on[tr * 6 + out]
                cell += deltas[out]
                tr = tr_at[cell]
            if count > line:
                line = count
            continue
        if count > loop:
            loop = count
    return line, loop
