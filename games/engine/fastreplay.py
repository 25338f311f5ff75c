"""The fast replay of legal placements on the fast board (``fastboard``), for ``adjudicate``.

``adjudicate`` has checked the document and worked out the placements as tuples; this module
replays them in one loop with the state in local variables and never decides that a record is
invalid: at the first placement it would not accept it returns None, and the literal replay
writes the verdict. The loop's shape and what each part costs are in docs/rules.md ("Engine").
"""

from __future__ import annotations

from typing import Any

from . import fastboard as fb
from .fastscore import best
from .tables import BIT_NAME

__all__ = ["replay"]


def replay(
    seats: int,
    hands: list[list[int]],
    bag: list[int],
    rows: list[tuple[int, int, int, int, int]],
    base: int,
    q_span: int,
    r_span: int,
    bits: list[int],
) -> tuple[str | None, list[int], int, int | None, dict[str, dict[str, Any]]] | None:
    """The replay of ``rows`` on pooled grids (``_replay_on``), which it zeroes and gives back."""
    grids = fb.grids_take()
    try:
        return _replay_on(grids, seats, hands, bag, rows, base, bits)
    finally:
        fb.grids_give(grids, q_span, r_span)


def _replay_on(
    g: fb.Grids,
    seats: int,
    hands: list[list[int]],
    bag: list[int],
    rows: list[tuple[int, int, int, int, int]],
    base: int,
    bits: list[int],
) -> tuple[str | None, list[int], int, int | None, dict[str, dict[str, Any]]] | None:
    """Replay legal placements; None at the first one the literal replay must judge.

    Returns (end or None when the game is not over, scores, turns, endgame_from, lines).
    The turn structure is literal.LiteralReplay's (settle/judge), specialised to legal placements:
    a legal placement is by the mover, into a forced space, or the free move with no fill.
    Hands are bit sets (bit t: tile t), so "holds a fitting tile" is an AND.
    """
    tr_at, pat, cl = g
    two = 2 * fb.SIDE  # pat[cell] >= two: the space has two sides or more
    three = 3 * fb.SIDE
    four = 4 * fb.SIDE
    side = fb.SIDE
    in_closure = fb.IN_CLOSURE
    occupied = fb.OCCUPIED  # cl of a cell with a tile (fastboard.grow reads no tr_at)
    # The forced spaces, each with the tiles that fit it by colour (FIT_MASK, looked up once,
    # when it becomes forced), so that making ``fillers`` exact again ORs the values and looks
    # nothing up: FIT_MASK is a large dict, and after other work (the literal engine, a request)
    # each lookup is a few cache misses.
    forced: dict[int, int] = {}
    order = 0
    live = 0  # cells in the R3 closure; none: every cl is 0 too
    has_fill = fb.has_fill
    fill_tiles = fb.fill_tiles
    grow = fb.grow
    placing = fb.PLACING
    fit_of = fb.FIT_MASK
    stride = fb.STRIDE
    held = [sum(1 << tile for tile in hand) for hand in hands]
    after = [*range(1, seats), 0]  # the next seat round the table
    bag_size = len(bag)
    mover = 0
    free_done = False
    turns = 1 if rows else 0
    # The tiles that fit some forced space by colour (fb.fill_tiles), or more: a new forced
    # space adds its own, a filled one leaves them until a hand meets them (then the union is
    # made again, exact). Most "could the mover fill?" questions end at one AND with the hand.
    # (In the endgame a forced space can gain a fourth side: fewer tiles fit it, so the union
    # stays a superset.)
    fillers = 0
    exact = True
    # Every placement's cell, worked out in one comprehension: the loop reads it with the row,
    # and at the end (reached only when every placement was legal) it is the board's tile list.
    cells = [q * stride + r + base for _, _, q, r, _ in rows]
    # The tile drawn after each placement (0: none, the endgame, where R1-R3 do not apply).
    draws = bag if len(rows) <= bag_size else bag + [0] * (len(rows) - bag_size)
    # (draws is longer than rows before the endgame: zip stops with the placements.)
    placements = zip(rows, cells, draws, strict=False)
    if rows:
        # The first tile: by seat 0, anywhere (its cell is the board's first), the free move.
        (seat, tile, _, _, rotation), cell, drawn = next(placements)
        if seat or not held[0] >> tile & 1:
            return None
        tr_at[cell] = tr = tile * 6 + rotation
        cl[cell] = occupied
        for delta, face, _ in fb.LINKS[tr]:
            pat[cell + delta] = face
        held[0] ^= 1 << tile | 1 << drawn  # the bag holds at least 32 tiles
        free_done = True
    for (seat, tile, _, _, rotation), cell, drawn in placements:
        # Settle: pass the turn on while the mover's turn is over. After the free move the turn
        # goes on while the mover can legally fill; when this placement is the mover's fill
        # attempt, the checks below decide that (if it is legal, the mover could fill).
        if (free_done and not (seat == mover and cell in forced)) or not held[mover]:
            passed = False
            while True:
                if free_done:
                    hand = held[mover]
                    if hand and forced:
                        if fillers & hand and not exact:
                            fillers = fill_tiles(forced)
                            exact = True
                        if fillers & hand and has_fill(hand, drawn > 0, g, forced):
                            break
                elif held[mover]:
                    break
                following = after[mover]
                if not held[following]:  # only in the endgame can a hand be empty
                    for step in range(2, seats + 1):
                        following = (mover + step) % seats
                        if held[following]:
                            break
                    else:
                        return None  # every tile is placed: a placement after the end
                mover = following
                free_done = False
                passed = True
            if passed:
                turns += 1
        if seat != mover:
            return None
        hand = held[seat]
        if not hand >> tile & 1:
            return None
        tr = tile * 6 + rotation
        opens = placing[pat[cell] << 9 | tr]
        if opens is None or tr_at[cell]:
            return None  # not adjacent, not matching its neighbours, or on a tile
        if cell in forced:
            del forced[cell]
            exact = False
        else:
            if free_done:
                return None
            if forced:
                if fillers & hand and not exact:
                    fillers = fill_tiles(forced)
                    exact = True
                if fillers & hand and has_fill(hand, drawn > 0, g, forced):
                    return None
            free_done = True
        tr_at[cell] = tr
        mine = cl[cell]
        cl[cell] = occupied
        # Each empty neighbour in one pass: R1 and R2 (while the bag is not empty) on its sides
        # before this tile, then its new side, and the R3 closure extended around it (fastboard
        # .place, inline: this loop is most of the replay). A breach returns at once; the
        # grids' box is zeroed whatever was half done.
        if not drawn:
            for delta, face, _ in opens:
                near = cell + delta
                near_pat = pat[near] + face
                pat[near] = near_pat
                if near_pat >= three:  # (a fourth side: fewer tiles fit)
                    forced[near] = fits = fit_of[near_pat]
                    fillers |= fits
            held[seat] = hand ^ (1 << tile)
        elif mine >= in_closure:
            # Filling a closure cell: the closure stays as it is (one of its virtual tiles
            # became real), so no neighbour joins it; a neighbour in it filled before this one
            # means the order of the simulation is broken, and the others count one virtual
            # neighbour less.
            for delta, face, other in opens:
                near = cell + delta
                near_pat = pat[near]
                if near_pat >= two:
                    if near_pat >= three or not near_pat & other:
                        return None  # R2, or R1: three sides of one colour
                    forced[near] = fits = fit_of[near_pat + face]
                    fillers |= fits
                pat[near] = near_pat + face
                virtual = cl[near]
                if virtual < in_closure:
                    cl[near] = virtual - side
                elif virtual < mine:
                    return None
            live -= 1
            held[seat] = hand ^ (1 << tile) | (1 << drawn)
        elif live:
            # Next to the closure but not in it: a neighbour in the closure means the closure
            # changes (R3); one that reaches three sides, real or virtual, joins it.
            stack: list[int] = []
            for delta, face, other in opens:
                near = cell + delta
                near_pat = pat[near]
                if near_pat >= two:
                    if near_pat >= three or not near_pat & other:
                        return None  # R2, or R1: three sides of one colour
                    forced[near] = fits = fit_of[near_pat + face]
                    fillers |= fits
                pat[near] = near_pat + face
                virtual = cl[near]
                if virtual:
                    if virtual >= in_closure:
                        return None
                    total = near_pat + face + virtual
                    if total >= three:
                        if total >= four:
                            return None
                        stack.append(near)
                elif near_pat >= two:
                    stack.append(near)
            if stack:
                grown = grow(stack, order, g)
                if grown < 0:
                    return None  # R3 is broken (controlled side): the literal says where
                live += grown - order
                order = grown
            held[seat] = hand ^ (1 << tile) | (1 << drawn)
        else:
            # No closure: every cl is 0, so the closure grows
            # exactly from the spaces this tile makes forced.
            stack = []
            for delta, face, other in opens:
                near = cell + delta
                near_pat = pat[near]
                if near_pat >= two:
                    if near_pat >= three or not near_pat & other:
                        return None  # R2, or R1: three sides of one colour
                    forced[near] = fits = fit_of[near_pat + face]
                    fillers |= fits
                    stack.append(near)
                pat[near] = near_pat + face
            if stack:
                grown = grow(stack, order, g)
                if grown < 0:
                    return None  # R3 is broken (controlled side): the literal says where
                live = grown - order
                order = grown
            held[seat] = hand ^ (1 << tile) | (1 << drawn)

    endgame_from = bag_size + 1 if len(rows) > bag_size else None
    # The end: settle once more, then the game is over, a deadlock, or unfinished.
    restricted = len(rows) < bag_size
    end: str | None = "completed"
    while True:
        if free_done:
            if held[mover] and forced and has_fill(held[mover], restricted, g, forced):
                end = None
                break
        elif held[mover]:
            placeable = fb.can_place(held[mover], restricted, cells, g, forced)
            end = None if placeable else "deadlock"
            break
        for step in range(1, seats + 1):
            following = (mover + step) % seats
            if held[following]:
                break
        else:
            break  # every tile is placed
        mover = following
        free_done = False

    scores: list[int] = []
    lines: dict[str, dict[str, Any]] = {}
    walks: dict[int, tuple[int, int]] = {}  # per colour: pairs share theirs (a walk marks cl)
    for bit in bits:
        if bit not in walks:
            walks[bit] = best(bit, cells, tr_at, cl)
        line, loop = walks[bit]
        scores.append(max(line, 2 * loop))
        if loop and 2 * loop >= line:
            lines[BIT_NAME[bit]] = {"kind": "loop", "tiles": loop}
        else:
            lines[BIT_NAME[bit]] = {"kind": "line", "tiles": line}
    return end, scores, turns, endgame_from, lines
