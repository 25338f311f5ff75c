"""The board: placed tiles, the spaces around them, the restrictions and legal placements.

State is kept incrementally so that judging a placement touches only the placed cell and its
six neighbours: every empty cell next to the group carries its *pattern* (the colours its
occupied neighbours show towards it, see ``tables``), and the set of *forced spaces* (empty
cells with three or more occupied neighbours) is updated as tiles go down. The R3 fill
simulation starts from the forced spaces and the spaces the placement creates, and walks only
the cells that simulated fills reach.

R3 is decided against a cached *fill closure*. Before the endgame every legal position passes
the R3 simulation, so the cells it would fill (``virtual`` here, each with its fill order) are
known; the closure is extended as tiles go down, and a candidate placement is then judged by
looking at its own neighbours, plus a short simulated chain from the spaces it creates (see
``_controlled_fast`` for why that equals the full simulation). When no valid closure exists (a
hand-built position that already fails the simulation, or the endgame), the full simulation of
``_simulate`` is used.

The board also keeps, per colour in play, a union-find over the tiles linked by that colour, so
the longest line and the largest loop are known at every moment without a recount: that part,
scoring, is ``lines.ColourPaths``, which the board extends.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .lines import ColourPaths
from .tables import (
    BOARD_SIZE,
    DELTA_SET,
    DELTAS,
    FACES,
    NIBBLES,
    ORIGIN,
    REACH,
    WORDS,
    cell_key,
    cell_offset,
    fits,
    occupied_mask,
)

# States of the cached fill closure.
_VALID = 0  # up to date, and the simulation from the board succeeds
_UNKNOWN = 1  # to be rebuilt before use
_FAILED = 2  # the simulation from the board itself fails (never before the endgame of a game)

THREE_OF_A_COLOUR = "THREE_OF_A_COLOUR"
FOUR_SIDED_SPACE = "FOUR_SIDED_SPACE"
CONTROLLED_SIDE = "CONTROLLED_SIDE"


class Breach(NamedTuple):
    """Why a placement breaks R1, R2 or R3 (before the endgame).

    ``space`` is the empty cell that would be three-of-a-colour (R1) or four-sided (R2, R3).
    For R1 ``colour`` is the colour bit on its three sides. For R3 ``origin`` is the forced space
    whose (simulated) filling led there, and ``existing`` says whether that forced space was on
    the board before the placement or is made by it.
    """

    code: str
    space: int
    colour: int = 0
    origin: int = 0
    existing: bool = False


class Board(ColourPaths):
    """Tiles on the hexagonal grid, keyed by integer cells relative to an origin."""

    __slots__ = (
        "q0",
        "r0",
        "word_at",
        "pattern",
        "forced",
        "placed",
        "_closure",
        "_virtual",
        "_vcount",
        "_order",
    )

    def __init__(self, colours: Iterable[int] = (), origin: tuple[int, int] = (0, 0)) -> None:
        self.q0, self.r0 = origin
        # word_at[cell] is the word of the tile there, 0 when empty; pattern[cell] is what the
        # occupied neighbours of an empty cell show towards it.
        self.word_at: list[int] = [0] * BOARD_SIZE
        self.pattern: list[int] = [0] * BOARD_SIZE
        self.forced: set[int] = set()
        # cell -> (tile, rotation), in placement order
        self.placed: dict[int, tuple[int, int]] = {}
        ColourPaths.__init__(self, colours)
        # The fill closure: cells the R3 simulation would fill -> (fill order, the forced space
        # whose chain fills it); and, per empty cell, how many of its neighbours are in it.
        self._closure = _VALID
        self._virtual: dict[int, tuple[int, int]] = {}
        self._vcount: dict[int, int] = {}
        self._order = 0

    # ----------------------------------------------------------------- coordinates
    def set_origin(self, q: int, r: int) -> None:
        """Anchor the integer keys at (q, r); only while the board is empty."""
        self.q0, self.r0 = q, r

    def key(self, q: int, r: int) -> int | None:
        """Integer key of cell (q, r), or None when it is too far to touch the board."""
        dq = q - self.q0
        dr = r - self.r0
        if -REACH <= dq <= REACH and -REACH <= dr <= REACH:
            return cell_key(dq, dr)
        return None

    def coords(self, cell: int) -> tuple[int, int]:
        dq, dr = cell_offset(cell)
        return self.q0 + dq, self.r0 + dr

    # ----------------------------------------------------------------- queries
    def is_empty(self) -> bool:
        return not self.placed

    def occupied(self, cell: int) -> bool:
        return self.word_at[cell] != 0

    def neighbours(self, cell: int) -> int:
        """Number of occupied neighbours of a cell."""
        return self.pattern[cell].bit_count()

    def is_forced(self, cell: int) -> bool:
        return cell in self.forced

    def mismatches(self, cell: int, word: int) -> bool:
        """True when the tile's word differs from an occupied neighbour's facing colour."""
        pattern = self.pattern[cell]
        return word & occupied_mask(pattern) != pattern

    def frontier(self) -> list[int]:
        """Empty cells next to the group, in key order; the origin when the board is empty."""
        if not self.placed:
            return [ORIGIN]
        word_at = self.word_at
        cells = {cell + delta for cell in self.placed for delta in DELTAS}
        return sorted(cell for cell in cells if not word_at[cell])

    # ----------------------------------------------------------------- restrictions
    def breach(self, cell: int, word: int) -> Breach | None:
        """The first of R1, R2, R3 that placing ``word`` at ``cell`` breaks, or None.

        The caller has checked that the cell is empty, adjacent and colour-matched; the
        restrictions are applied only while the bag is not empty, which is the caller's call.
        """
        word_at = self.word_at
        pattern = self.pattern
        three: Breach | None = None
        four: Breach | None = None
        made: list[int] = []
        shift = 0
        for delta in DELTAS:
            space = cell + delta
            if not word_at[space]:
                sides = pattern[space].bit_count() + 1
                if sides == 3:
                    made.append(space)
                    if three is None:
                        # R1: the two sides already there and ours all show one colour.
                        colour = (word >> shift) & 15
                        if not pattern[space] & ~(colour * NIBBLES):
                            three = Breach(THREE_OF_A_COLOUR, space, colour)
                elif sides >= 4 and four is None:
                    four = Breach(FOUR_SIDED_SPACE, space)
            shift += 4
        if three is not None:
            return three
        if four is not None:
            return four
        return self._r3(cell, made)

    def space_breach(self, cell: int, *, by_simulation: bool = False) -> Breach | None:
        """R2 or R3 for a tile at ``cell``: the part of the restrictions that ignores colours.

        ``by_simulation`` decides R3 by the full simulation instead of the cached closure.
        """
        word_at = self.word_at
        pattern = self.pattern
        made: list[int] = []
        for delta in DELTAS:
            space = cell + delta
            if not word_at[space]:
                sides = pattern[space].bit_count() + 1
                if sides >= 4:
                    return Breach(FOUR_SIDED_SPACE, space)
                if sides == 3:
                    made.append(space)
        return self._simulate(cell, made) if by_simulation else self._r3(cell, made)

    def simulate(self, cell: int) -> Breach | None:
        """R2 or R3 for a tile at ``cell`` by the full simulation, never the cached closure.

        Slower than ``space_breach``; kept as the reference the fast path is tested against.
        """
        return self.space_breach(cell, by_simulation=True)

    def _r3(self, cell: int, made: list[int]) -> Breach | None:
        forced = self.forced
        if not made and (not forced or (len(forced) == 1 and cell in forced)):
            return None  # no forced space anywhere after the placement: R3 holds at once
        if self._closure == _UNKNOWN:
            self._rebuild_closure()
        if self._closure == _VALID:
            return self._controlled_fast(cell)
        return self._simulate(cell, made)

    def _controlled_fast(self, cell: int) -> Breach | None:
        """R3 against the cached closure C of the board S (the simulation from S succeeds).

        Why this equals the simulation from S + {cell}: replay the cached fill order with the
        new tile present. A cell x of C - S was filled with exactly three neighbours; the new
        tile adds one more exactly when it touches x and x came earlier in the order than the
        cell itself (or the cell is outside C), so that x would then be four-sided: failure.
        Otherwise every cached fill is still exactly three-sided, no cell outside C ever gets
        past three (C is closed: at most two neighbours in it), and after the cached fills
        only the spaces next to the new tile can have become forced, which a short simulated
        chain settles. The rule says the outcome does not depend on the order of fills, so
        choosing the cached order is allowed.
        """
        virtual = self._virtual
        entry = virtual.get(cell)
        if entry is not None:
            rank = entry[0]
            for delta in DELTAS:
                near = virtual.get(cell + delta)
                if near is not None and near[0] < rank:
                    return Breach(CONTROLLED_SIDE, cell + delta, origin=near[1], existing=True)
            return None
        for delta in DELTAS:
            near = virtual.get(cell + delta)
            if near is not None:
                return Breach(CONTROLLED_SIDE, cell + delta, origin=near[1], existing=True)

        word_at = self.word_at
        pattern = self.pattern
        vcount = self._vcount
        stack: list[tuple[int, int, bool]] = []
        for delta in DELTAS:
            space = cell + delta
            if word_at[space]:
                continue
            real = pattern[space].bit_count() + 1
            if real + vcount.get(space, 0) >= 3:
                # Three sides with the new tile: a new forced space if all three are real
                # tiles, otherwise part of the chain of the forced space next to it.
                if real >= 3:
                    stack.append((space, space, False))
                else:
                    stack.append((space, self._origin_near(space), True))
        if not stack:
            return None
        filled = {cell}
        added: dict[int, int] = {}
        while stack:
            space, origin, existing = stack.pop()
            filled.add(space)
            for delta in DELTAS:
                near = space + delta
                if word_at[near] or near in virtual or near in filled:
                    continue
                extra = added.get(near, 0) + 1
                added[near] = extra
                sides = (
                    pattern[near].bit_count()
                    + vcount.get(near, 0)
                    + extra
                    + ((near - cell) in DELTA_SET)
                )
                if sides >= 4:
                    return Breach(CONTROLLED_SIDE, near, origin=origin, existing=existing)
                if sides == 3:
                    stack.append((near, origin, existing))
        return None

    def _origin_near(self, space: int) -> int:
        virtual = self._virtual
        for delta in DELTAS:
            entry = virtual.get(space + delta)
            if entry is not None:
                return entry[1]
        return space

    def _simulate(self, cell: int, made: list[int]) -> Breach | None:
        """R3 by the full simulation: fill forced spaces (colours ignored) until none is left.

        Used when no valid closure is cached. The rule's outcome does not depend on the order
        of fills, so this fills depth-first, starting with the forced spaces that were already
        on the board (so that a failure is attributed to the space that controls the side),
        and touches only cells that simulated fills reach. ``added`` counts simulated
        neighbours; the placed tile counts for the cells next to ``cell``.
        """
        word_at = self.word_at
        pattern = self.pattern
        stack: list[tuple[int, int, bool]] = [(space, space, False) for space in made]
        for space in sorted(self.forced, reverse=True):
            if space == cell:
                continue
            if pattern[space].bit_count() + ((space - cell) in DELTA_SET) >= 4:
                # A four-sided space already on the board (only in a hand-built position).
                return Breach(CONTROLLED_SIDE, space, origin=space, existing=True)
            stack.append((space, space, True))
        filled = {cell}
        added: dict[int, int] = {}
        while stack:
            space, origin, existing = stack.pop()
            filled.add(space)
            for delta in DELTAS:
                near = space + delta
                if word_at[near] or near in filled:
                    continue
                extra = added.get(near, 0) + 1
                added[near] = extra
                sides = pattern[near].bit_count() + extra + ((near - cell) in DELTA_SET)
                if sides >= 4:
                    return Breach(CONTROLLED_SIDE, near, origin=origin, existing=existing)
                if sides == 3:
                    stack.append((near, origin, existing))
        return None

    # ----------------------------------------------------------------- the fill closure
    def _rebuild_closure(self) -> None:
        """Compute the fill closure of the board from scratch."""
        self._virtual = {}
        self._vcount = {}
        self._order = 0
        pattern = self.pattern
        stack: list[tuple[int, int]] = []
        for space in sorted(self.forced, reverse=True):
            if pattern[space].bit_count() >= 4:
                self._closure = _FAILED
                return
            stack.append((space, space))
        self._closure = _VALID
        self._grow(stack)

    def _grow(self, stack: list[tuple[int, int]]) -> None:
        """Fill (virtually) the cells on the stack and the chains they start."""
        word_at = self.word_at
        pattern = self.pattern
        virtual = self._virtual
        vcount = self._vcount
        while stack:
            space, origin = stack.pop()
            virtual[space] = (self._order, origin)
            self._order += 1
            for delta in DELTAS:
                near = space + delta
                if word_at[near] or near in virtual:
                    continue
                count = vcount.get(near, 0) + 1
                vcount[near] = count
                sides = pattern[near].bit_count() + count
                if sides >= 4:
                    self._closure = _FAILED
                    return
                if sides == 3:
                    stack.append((near, origin))

    def _extend_closure(self, cell: int) -> None:
        """Bring the closure up to date after a tile went down at ``cell``."""
        virtual = self._virtual
        vcount = self._vcount
        entry = virtual.pop(cell, None)
        if entry is not None:
            # A cell of the closure became real: the closure itself is unchanged (unless the
            # placement breaks R3, which the endgame allows), only the neighbours outside it
            # now count it as a real neighbour instead of a virtual one.
            word_at = self.word_at
            for delta in DELTAS:
                near = virtual.get(cell + delta)
                if near is not None and near[0] < entry[0]:
                    self._closure = _FAILED
                    return
            for delta in DELTAS:
                near = cell + delta
                if not word_at[near] and near not in virtual:
                    vcount[near] -= 1
            return
        word_at = self.word_at
        pattern = self.pattern
        stack: list[tuple[int, int]] = []
        for delta in DELTAS:
            space = cell + delta
            if word_at[space]:
                continue
            if space in virtual:
                self._closure = _FAILED  # an R3 breach was placed (the endgame allows it)
                return
            real = pattern[space].bit_count()
            sides = real + vcount.get(space, 0)
            if sides >= 4:
                self._closure = _FAILED
                return
            if sides == 3:
                stack.append((space, space if real >= 3 else self._origin_near(space)))
        if stack:
            self._grow(stack)

    def legal(self, cell: int, word: int, restricted: bool) -> bool:
        """Whether a colour-matched placement at an empty adjacent cell passes R1-R3."""
        return not restricted or self.breach(cell, word) is None

    # ----------------------------------------------------------------- legal placements
    def forced_fills(self, hand: Iterable[int], restricted: bool) -> Iterator[tuple[int, int, int]]:
        """Legal fills (cell, tile, rotation) of forced spaces with tiles from ``hand``.

        In order of cell key, then tile, then rotation, so that reports are reproducible.
        """
        tiles = set(hand)
        pattern = self.pattern
        for space in sorted(self.forced):
            for tile, rotation, word in fits(pattern[space]):
                if tile in tiles and (not restricted or self.breach(space, word) is None):
                    yield space, tile, rotation

    def first_forced_fill(
        self, hand: Iterable[int], restricted: bool
    ) -> tuple[int, int, int] | None:
        if not self.forced:
            return None
        return next(self.forced_fills(hand, restricted), None)

    def placements(self, hand: Iterable[int], restricted: bool) -> Iterator[tuple[int, int, int]]:
        """Every legal placement (cell, tile, rotation) of a tile from ``hand``, forced or not."""
        tiles = sorted(set(hand))
        word_at = self.word_at
        pattern = self.pattern
        for cell in self.frontier():
            if word_at[cell]:
                continue
            required = pattern[cell]
            mask = occupied_mask(required)
            for tile in tiles:
                for rotation, word in enumerate(WORDS[tile]):
                    if word & mask == required and (
                        not restricted or self.breach(cell, word) is None
                    ):
                        yield cell, tile, rotation

    def first_placement(self, hand: Iterable[int], restricted: bool) -> tuple[int, int, int] | None:
        return next(self.placements(hand, restricted), None)

    # ----------------------------------------------------------------- placing
    def place(self, cell: int, tile: int, rotation: int) -> None:
        """Put a tile down (legality is the caller's business) and update the bookkeeping."""
        word_at = self.word_at
        pattern = self.pattern
        forced = self.forced
        word_at[cell] = WORDS[tile][rotation]
        self.placed[cell] = (tile, rotation)
        forced.discard(cell)
        for delta, face in zip(DELTAS, FACES[tile][rotation], strict=True):
            near = cell + delta
            if not word_at[near]:
                sides = pattern[near] | face
                pattern[near] = sides
                if sides.bit_count() >= 3:
                    forced.add(near)
        if self._closure == _VALID:
            self._extend_closure(cell)
        else:
            self._closure = _UNKNOWN
        if self._paths:
            self._link(cell, tile, rotation)
