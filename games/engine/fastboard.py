"""The fast replay's board: flat tables indexed by small integers, and the rules as functions.

A placed tile is one integer ``tr = tile * 6 + rotation`` (never 0, so 0 means an empty cell);
every table below is a tuple indexed by it. Cells are integers on a padded 64 x 64 grid of its
own (``cell = row * STRIDE + column``, so a neighbour is ``cell + DELTAS[i]``), placed by the
board's bounding box (``base``): a connected board of 56 tiles spans at most 55 in q and in r,
and the R3 closure never leaves the q/r box of the tiles (a cell outside it touches at most two
cells inside), so everything the rules look at lies within two cells of the tiles and never
reaches the grid's edge. The board ``g`` is three grid-sized lists, read by index (a list index
costs half a ``dict.get``):

- ``tr_at``: the tile on each cell (0: empty);
- ``pat``: the colours the occupied neighbours of an empty cell show towards it (``tables``),
  plus ``SIDE`` (1 << 24) times how many they are, so that "two sides or more" is
  ``pat[cell] >= 2 * SIDE`` and one addition records a new neighbour (a face in
  ``LINKS`` carries its ``SIDE``); ``& COLOURS`` gives the pattern alone;
- ``cl``: the R3 fill closure of the literal board (board.py explains why the checks below
  equal the rule's simulation), two numbers in one: a cell the simulation would fill holds
  ``IN_CLOSURE`` (8 ``SIDE``) plus its fill order (from 1); any other empty cell holds ``SIDE``
  times how many closure cells it touches (0 to 6), and a cell with a tile ``OCCUPIED``, above
  every closure value. So ``cl[cell] >= IN_CLOSURE`` means "in the closure, or a tile", a replay
  reads one list, not two, for every neighbour of every placement, and
  ``pat[cell] + cl[cell] >= 3 * SIDE`` says "three sides, real or virtual".

plus the forced spaces (a set; the replay keeps a dict of each one's ``FIT_MASK``). Grids are
reused between games: allocating them costs more than a tenth of a whole game, so a finished
replay zeroes the box of its tiles and hands the lists back (``grids_take``/``grids_give``).
The grid is small on purpose, so that a replay's cells share few cache lines: three 64 x 64
lists (96 kB) instead of five on the 128 x 128 grid of ``tables`` (640 kB).

Nothing here builds messages or raises: a caller that meets a broken rule hands the record to
the literal replay, which says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import reduce
from operator import or_
from typing import Any

from .tables import DIRECTIONS, NIBBLES, ROTATIONS, WORDS

STRIDE = 64
BOARD_SIZE = STRIDE * STRIDE
# A connected board spans at most SPAN in q and in r; its box starts MARGIN cells in.
SPAN = 55
MARGIN = 2
DELTAS: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in DIRECTIONS)
# pat[cell]: the pattern (COLOURS) plus SIDE per occupied neighbour.
SIDE = 1 << 24
COLOURS = SIDE - 1


def base_of(q_low: int, r_low: int) -> int:
    """``base`` such that ``q * STRIDE + r + base`` is the cell of (q, r) on a board whose
    tiles have q >= q_low and r >= r_low (and span at most SPAN)."""
    return (MARGIN - q_low) * STRIDE + MARGIN - r_low


def coords(cell: int, q_low: int, r_low: int) -> tuple[int, int]:
    """(q, r) of a cell on the board placed by ``base_of(q_low, r_low)``."""
    row, column = divmod(cell, STRIDE)
    return row - MARGIN + q_low, column - MARGIN + r_low


TR_SIZE = 57 * ROTATIONS
# WORD[tr]: the tile's six edge colours.
WORD: tuple[int, ...] = tuple(WORDS[tr // 6][tr % 6] if tr >= 6 else 0 for tr in range(TR_SIZE))
# LINK[i][colour]: what a tile showing ``colour`` (a bit) in direction i does to that neighbour,
# as (delta, face, not_mono): the step to it; what its pat gains (the colour on its facing edge,
# and one SIDE); and every pattern bit except "that colour on all six edges" (a two-sided space
# whose pattern has none of these would become three of one colour: R1).
LINK: tuple[dict[int, tuple[int, int, int]], ...] = tuple(
    {
        colour: (delta, (colour << (4 * ((i + 3) % 6))) + SIDE, ~(colour * NIBBLES) & COLOURS)
        for colour in (1, 2, 4, 8)
    }
    for i, delta in enumerate(DELTAS)
)
# LINKS[tr]: the six links of a placed tile, clockwise from N. They are the 24 tuples of LINK,
# shared by every tile: the few objects a replay reads per neighbour stay in the CPU's cache
# even when other work (the literal engine, a request) ran in between.
LINKS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(LINK[i][(WORD[tr] >> (4 * i)) & 15] for i in range(6)) if tr >= 6 else ()
    for tr in range(TR_SIZE)
)


class Memo(dict[int, Any]):
    """A table filled on first use: ``table[key]`` computes a missing value with ``make`` and
    keeps it, so a lookup in the hot loop is one subscript (no ``.get`` and test). None is
    returned but not kept: the keys that give None (what illegal records ask) stay unbounded
    outside the table."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> Any:
        value = self.make(key)
        if value is not None:
            self[key] = value
        return value


def _placing(key: int) -> tuple[tuple[int, int, int], ...] | None:
    pattern, tr = key >> 9 & COLOURS, key & 511
    occupied = sides_mask(pattern)
    if not pattern or WORD[tr] & occupied != pattern:
        return None
    opens = tuple(link for i, link in enumerate(LINKS[tr]) if not occupied >> (4 * i) & 1)
    return _SHARED.setdefault(opens, opens)


# One tuple per distinct list of open links, however many (pattern, tile) keys lead to it.
_SHARED: dict[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]] = {}


# EMPTY_SIDES[pattern]: the deltas towards the empty neighbours of an empty cell of that pattern
# (its occupied sides are the ones with a colour).
EMPTY_SIDES = Memo(
    lambda pattern: tuple(delta for i, delta in enumerate(DELTAS) if not (pattern >> (4 * i)) & 15)
)
# EMPTY_EDGES[pattern]: (delta, 4 * edge) towards each empty neighbour.
EMPTY_EDGES = Memo(
    lambda pattern: tuple(
        (delta, 4 * i) for i, delta in enumerate(DELTAS) if not (pattern >> (4 * i)) & 15
    )
)
TWO_SIDES = 2 * SIDE
THREE_SIDES = 3 * SIDE


def _mono(pattern: int) -> int:
    colours = {(pattern >> (4 * i)) & 15 for i in range(6)} - {0}
    return colours.pop() if len(colours) == 1 else 0


# MONO[pat]: for a two-sided space, the colour both its sides show, or 0 when they differ. A
# tile that shows that colour towards it makes three sides of one colour (R1), so R1 for a cell
# is one AND of each tile's WORD with those colours shifted to their edges.
MONO = Memo(_mono)
# PLACING[pattern << 9 | tr]: None when tile ``tr`` does not fit a space of that pattern (or the
# pattern is empty: no neighbour); else LINKS[tr] without the directions that are occupied,
# i.e. the neighbours that are empty when the tile goes there. One lookup answers "does it
# match its neighbours?" and "which neighbours change?". At most 342 x 64 entries are kept.
PLACING = Memo(_placing)


def _fits(pattern: int) -> tuple[tuple[int, int], ...]:
    mask, colours = sides_mask(pattern), pattern & COLOURS
    return tuple((tr // 6, tr) for tr in range(6, TR_SIZE) if WORD[tr] & mask == colours)


# FITS[pattern]: every (tile, tr) matching ``pattern`` (a ``pat`` value) on its occupied sides.
FITS = Memo(_fits)


Grids = tuple[list[int], list[int], list[int]]
_POOL: list[Grids] = []
# cl[cell] - IN_CLOSURE: a closure cell's fill order (virtual sides are below IN_CLOSURE). The
# order is added, not multiplied, so every cl value stays below 2 ** 30: one-digit ints, which
# CPython adds and compares on its fast path.
IN_CLOSURE = 8 * SIDE
# cl[cell] of a cell that holds a tile: above every closure cell's value, so that "a tile, or
# already in the closure" is one comparison (``grow`` reads cl alone, not tr_at as well).
OCCUPIED = 16 * SIDE


def grids_take() -> Grids:
    """Three all-zero grids; list.pop is atomic, so two threads never share them."""
    if _POOL:
        return _POOL.pop()
    return ([0] * BOARD_SIZE, [0] * BOARD_SIZE, [0] * BOARD_SIZE)


def grids_give(g: Grids, q_span: int, r_span: int) -> None:
    """Zero the box a replay could have touched and keep the grids for the next one.

    Everything a replay writes lies within one cell of the box of its tiles (``q_span`` by
    ``r_span`` from MARGIN, MARGIN): the neighbours of the tiles, and the closure, which never
    leaves the box. Zeroing that box row by row with slice assignments (C loops) costs a few
    dozen bytecodes, where listing every touched cell as the replay goes cost a tenth of it.
    """
    width = r_span + 3
    zeros = [0] * width
    first = (MARGIN - 1) * STRIDE + MARGIN - 1
    for grid in g:
        for start in range(first, first + (q_span + 3) * STRIDE, STRIDE):
            grid[start : start + width] = zeros
    if len(_POOL) < 8:
        _POOL.append(g)


def controlled_ok(
    cell: int,
    g: Grids,
    in_closure: int = IN_CLOSURE,
    side: int = SIDE,
    two: int = 2 * SIDE,
    three: int = 3 * SIDE,
    four: int = 4 * SIDE,
) -> bool:
    """R3 against the closure, without changing it (board.Board._controlled_fast, yes/no).

    Outside the closure the chain that a tile on ``cell`` starts is simulated on ``cl`` itself,
    as ``grow`` extends the closure: the tile's side is added to its empty neighbours, the tile
    and each space the chain fills count as closure cells (skipped), a side added to a space
    that reaches four fails. Every change is an addition, taken back before returning, so the
    grids end as they began. (Sets of filled and touched cells and a dict of added sides, as
    this was first written, cost half again as many bytecodes per neighbour visited.) The
    constants are default arguments, read as locals.
    """
    _, pat, cl = g
    mine = cl[cell]
    if mine >= in_closure:
        for delta in DELTAS:
            near = cl[cell + delta]
            if in_closure <= near < mine:
                return False
        return True
    empties = EMPTY_SIDES[pat[cell]]
    stack: list[int] = []
    for delta in empties:
        space = cell + delta
        virtual = cl[space]
        if virtual >= in_closure:
            return False
        if pat[space] + virtual >= two:  # with this tile's side: three
            stack.append(space)
    if not stack:
        return True
    for delta in empties:
        cl[cell + delta] += side
    cl[cell] = mine + in_closure
    filled: list[int] = []
    bumped: list[int] = []
    ok = True
    while stack:
        space = stack.pop()
        cl[space] += in_closure
        filled.append(space)
        for delta in EMPTY_SIDES[pat[space]]:
            near = space + delta
            virtual = cl[near]
            if virtual >= in_closure:
                continue
            virtual += side
            cl[near] = virtual
            bumped.append(near)
            virtual += pat[near]
            if virtual >= three:
                if virtual >= four:
                    ok = False
                    stack.clear()
                    break
                stack.append(near)
    for near in bumped:
        cl[near] -= side
    for space in filled:
        cl[space] -= in_closure
    cl[cell] = mine
    for delta in empties:
        cl[cell + delta] -= side
    return ok


def grow(
    stack: list[int],
    order: int,
    g: Grids,
    in_closure: int = IN_CLOSURE,
    side: int = SIDE,
    three: int = 3 * SIDE,
    four: int = 4 * SIDE,
    deltas: tuple[int, ...] = DELTAS,
) -> int:
    """Extend the closure by the chains from ``stack``; the last fill order, or -1 on failure.

    (The constants are default arguments: locals are the cheapest names to read.) A space's
    empty neighbours are found by looking at all six, not by ``EMPTY_SIDES`` of its pattern: a
    few more bytecodes, but after other work (the literal engine, a request) each lookup in that
    dict was a few cache misses, which cost more. One read of ``cl`` skips a tile (``OCCUPIED``)
    and a closure cell alike: a third of the neighbours looked at hold a tile.
    """
    _, pat, cl = g
    while stack:
        space = stack.pop()
        order += 1
        cl[space] = in_closure + order
        for delta in deltas:
            near = space + delta
            virtual = cl[near]
            if virtual >= in_closure:
                continue
            virtual += side
            cl[near] = virtual
            sides = pat[near] + virtual
            if sides >= three:
                if sides >= four:
                    return -1
                stack.append(near)
    return order


def place(cell: int, tr: int, g: Grids, forced: set[int]) -> None:
    """Put tile ``tr`` down; the neighbours and the forced spaces follow, the closure does not
    (``rebuild`` makes it for a whole board; the replay extends it inline as it places)."""
    tr_at, pat, cl = g
    tr_at[cell] = tr
    cl[cell] = OCCUPIED
    forced.discard(cell)
    for delta, face, _ in LINKS[tr]:
        near = cell + delta
        if tr_at[near]:
            continue
        sides = pat[near] + face
        pat[near] = sides
        if sides >= 3 * SIDE:
            forced.add(near)


def rebuild(forced: set[int], g: Grids) -> int:
    """The closure of a board from scratch (into a zeroed ``cl``); -1 when it fails."""
    pat = g[1]
    for space in forced:
        if pat[space] >= 4 * SIDE:
            return -1
    return grow(sorted(forced, reverse=True), 0, g)


def sides_mask(pattern: int) -> int:
    """All four bits of every edge of ``pattern`` that has a neighbour."""
    return ((pattern | pattern >> 1 | pattern >> 2 | pattern >> 3) & NIBBLES) * 15


def connected(cells: list[int], tr_at: list[int]) -> bool:
    """Whether the tiles on ``cells`` form one group."""
    reached = {cells[0]}
    stack = [cells[0]]
    while stack:
        cell = stack.pop()
        for delta in DELTAS:
            near = cell + delta
            if tr_at[near] and near not in reached:
                reached.add(near)
                stack.append(near)
    return len(reached) == len(cells)


def _fit_mask(pattern: int) -> int:
    mask = 0
    for tile, _ in FITS[pattern]:
        mask |= 1 << tile
    return mask


# FIT_MASK[pattern]: bit t set for every tile t that fits ``pattern`` in some rotation.
FIT_MASK = Memo(_fit_mask)
# FITS_BY_TILE[pattern][t]: the tr of tile t that fit ``pattern`` (a hand's few tiles are looked
# up instead of running through every fitting tile of the set).
FITS_BY_TILE = Memo(
    lambda pattern: tuple(
        tuple(tr for tile, tr in FITS[pattern] if tile == wanted) for wanted in range(57)
    )
)


def legal_here(
    cell: int, held: int, restricted: bool, g: Grids, forced: Collection[int], every: bool
) -> list[tuple[int, int]]:
    """Legal (tile, tr) of the hand ``held`` (bit t: tile t) at the empty adjacent ``cell``.

    Only the first one found unless ``every``. R2 and R3 do not depend on the tile, so they are
    judged once for the cell (R3 only when a tile fits at all), R1 per tile; the closure in
    ``g`` must be valid when ``restricted``.
    """
    pat = g[1]
    pattern = pat[cell]
    matching = FIT_MASK[pattern] & held  # the held tiles that fit by colour
    if not matching:
        return []
    forbid = 0  # R1: per edge, the colour a tile must not show there (see MONO)
    if restricted:
        two = False
        for delta, shift in EMPTY_EDGES[pattern]:
            near = pat[cell + delta]
            if near >= TWO_SIDES:
                if near >= THREE_SIDES:
                    return []  # R2, whatever the tile
                forbid |= MONO[near] << shift
                two = True
        # As board.Board._r3: R3 only when some forced space exists after the placement.
        if (two or (forced and (len(forced) > 1 or cell not in forced))) and not controlled_ok(
            cell, g
        ):
            return []
    found: list[tuple[int, int]] = []
    by_tile = FITS_BY_TILE[pattern]
    while matching:  # tile by tile, lowest first, as FITS lists them
        low = matching & -matching
        matching ^= low
        tile = low.bit_length() - 1
        for tr in by_tile[tile]:
            if not WORD[tr] & forbid:
                found.append((tile, tr))
                if not every:
                    return found
    return found


def listing(
    spaces: list[int],
    held: int,
    restricted: bool,
    g: Grids,
    forced: set[int],
    q_low: int,
    r_low: int,
    is_forced: bool,
) -> list[tuple[int, int, int, int, bool]]:
    """(tile, q, r, rotation, is_forced) of every legal placement of ``held`` on the empty
    ``spaces``: ``legal_here`` for a whole list of cells, writing the moves as it finds them
    (positions list about fifty, and a second pass over them cost a tenth of ``legal_moves``)."""
    tr_at, pat = g[0], g[1]
    fit_mask = FIT_MASK
    empty_edges = EMPTY_EDGES
    mono = MONO
    word_of = WORD
    others = bool(forced) and len(forced) > 1  # some forced space other than the cell itself
    found: list[tuple[int, int, int, int, bool]] = []
    for cell in spaces:
        if tr_at[cell]:
            continue
        pattern = pat[cell]
        matching = fit_mask[pattern] & held
        if not matching:
            continue
        forbid = 0
        if restricted:
            two = blocked = False
            for delta, shift in empty_edges[pattern]:
                near = pat[cell + delta]
                if near >= TWO_SIDES:
                    if near >= THREE_SIDES:
                        blocked = True  # R2
                        break
                    forbid |= mono[near] << shift
                    two = True
            if blocked or (
                (two or others or (forced and cell not in forced)) and not controlled_ok(cell, g)
            ):
                continue
        row, column = divmod(cell, STRIDE)
        q, r = row - MARGIN + q_low, column - MARGIN + r_low
        by_tile = FITS_BY_TILE[pattern]
        while matching:
            low = matching & -matching
            matching ^= low
            tile = low.bit_length() - 1
            for tr in by_tile[tile]:
                if not word_of[tr] & forbid:
                    found.append((tile, q, r, tr - 6 * tile, is_forced))
    return found


def fill_tiles(forced: dict[int, int]) -> int:
    """Bit t set for every tile t that fits some forced space by colour alone.

    ``forced`` maps each forced space to its ``FIT_MASK``. A hand with none of these tiles has
    no fill, whatever R1-R3 say: the replay asks this union first, so the full search
    (``has_fill``) runs for one check in twenty.
    """
    return reduce(or_, forced.values(), 0)


def has_fill(held: int, restricted: bool, g: Grids, forced: Collection[int]) -> bool:
    """Whether a tile of the hand ``held`` can legally fill some forced space."""
    # A plain loop: any() over a generator costs a frame per forced space, on the hot path.
    for space in forced:  # noqa: SIM110
        if legal_here(space, held, restricted, g, forced, False):
            return True
    return False


def can_place(
    held: int, restricted: bool, cells: list[int], g: Grids, forced: Collection[int]
) -> bool:
    """Whether any tile of ``held`` has a legal placement anywhere (a fill or any other)."""
    if not cells:
        return True
    tr_at = g[0]
    for cell in {cell + delta for cell in cells for delta in DELTAS}:
        if not tr_at[cell] and legal_here(cell, held, restricted, g, forced, False):
            return True
    return False
