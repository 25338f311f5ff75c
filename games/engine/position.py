"""``tantrix-position/1``: a board and the mover's hand, and the legal moves from it."""

from __future__ import annotations

from collections import deque
from itertools import chain
from operator import itemgetter
from typing import Any

from . import fastboard as fb
from .board import Board
from .errors import MalformedPosition
from .jsonio import JsonProblem, describe, load, number
from .tables import (
    DIRECTIONS,
    HAND_SIZE,
    ROTATIONS,
    TILE_COUNT,
    WORDS,
    edge_colour,
)

POSITION_FORMAT = "tantrix-position/1"
POSITION_KEYS = frozenset({"format", "board", "hand", "bag_empty", "free_move_made"})
BOARD_KEYS = frozenset({"tile", "q", "r", "rotation"})


def _fail(message: str) -> MalformedPosition:
    return MalformedPosition(f"malformed position: {message}")


def _int_in(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


Tiles = list[tuple[int, int, int, int]]  # (tile, q, r, rotation) in board order


def parse_position(data: Any) -> tuple[Board, list[int], bool, bool]:
    """Check a position; return (board, hand, bag_empty, free_move_made) on the literal board."""
    tiles, hand, bag_empty, free_move_made = read_position(data)
    board = Board(origin=(tiles[0][1], tiles[0][2]) if tiles else (0, 0))
    for tile, q, r, rotation in tiles:
        cell = board.key(q, r)
        assert cell is not None  # a connected group of <= 56 tiles stays within reach
        board.place(cell, tile, rotation)
    return board, hand, bag_empty, free_move_made


def read_position(data: Any, whole: bool = True) -> tuple[Tiles, list[int], bool, bool]:
    """Check a position; return (tiles, hand, bag_empty, free_move_made).

    Besides the shape of the document, the board must be something a game can reach: one
    connected group of distinct tiles whose touching edges match. ``whole=False`` leaves those
    two checks to the caller (the fast board makes them on its grid).
    """
    try:
        doc = load(data)
    except JsonProblem as exc:
        raise _fail(str(exc)) from None
    if type(doc) is not dict:
        raise _fail(f"expected a JSON object, got {describe(doc)}")
    for key in doc:
        if key not in POSITION_KEYS:
            raise _fail(f"unknown key {describe(key)}")
    for key in ("format", "board", "hand", "bag_empty", "free_move_made"):
        if key not in doc:
            raise _fail(f"{key}: required, missing")
    if type(doc["format"]) is not str or doc["format"] != POSITION_FORMAT:
        raise _fail(f"format: expected {describe(POSITION_FORMAT)}, got {describe(doc['format'])}")
    for key in ("bag_empty", "free_move_made"):
        if type(doc[key]) is not bool:
            raise _fail(f"{key}: expected true or false, got {describe(doc[key])}")

    hand = doc["hand"]
    if type(hand) is not list or not 1 <= len(hand) <= HAND_SIZE:
        raise _fail(f"hand: expected a list of 1 to {HAND_SIZE} tiles, got {describe(hand)}")
    seen: dict[int, str] = {}
    for i, tile in enumerate(hand):
        if not _int_in(tile, 1, TILE_COUNT):
            raise _fail(f"hand[{i}]: expected a tile number 1..56, got {describe(tile)}")
        if tile in seen:
            raise _fail(f"hand[{i}]: tile {tile} appears twice (also at {seen[tile]})")
        seen[tile] = f"hand[{i}]"

    entries = doc["board"]
    if type(entries) is not list:
        raise _fail(f"board: expected a list, got {describe(entries)}")
    if len(entries) + len(hand) > TILE_COUNT:
        raise _fail(f"board: {len(entries)} tiles and a hand of {len(hand)} are more than 56")
    tiles: Tiles = []
    cells: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(entries):
        path = f"board[{i}]"
        if type(entry) is not dict:
            raise _fail(f"{path}: expected an object, got {describe(entry)}")
        for key in entry:
            if key not in BOARD_KEYS:
                raise _fail(f"{path}: unknown key {describe(key)}")
        for key in ("tile", "q", "r", "rotation"):
            if key not in entry:
                raise _fail(f"{path}.{key}: required, missing")
        tile, q, r, rotation = entry["tile"], entry["q"], entry["r"], entry["rotation"]
        if not _int_in(tile, 1, TILE_COUNT):
            raise _fail(f"{path}.tile: expected a tile number 1..56, got {describe(tile)}")
        for name, value in (("q", q), ("r", r)):
            if type(value) is not int:
                raise _fail(f"{path}.{name}: expected an integer coordinate, got {describe(value)}")
        if not _int_in(rotation, 0, ROTATIONS - 1):
            raise _fail(f"{path}.rotation: expected an integer 0..5, got {describe(rotation)}")
        if tile in seen:
            raise _fail(f"{path}.tile: tile {tile} appears twice (also at {seen[tile]})")
        seen[tile] = path
        if (q, r) in cells:
            raise _fail(
                f"{path}: the cell q={number(q)} r={number(r)} already holds board[{cells[(q, r)]}]"
            )
        cells[(q, r)] = i
        tiles.append((tile, q, r, rotation))

    if whole:
        _check_connected(tiles, cells)
        _check_colours(tiles, cells)
    return tiles, list(hand), doc["bag_empty"], doc["free_move_made"]


def _check_connected(
    tiles: list[tuple[int, int, int, int]], cells: dict[tuple[int, int], int]
) -> None:
    if not tiles:
        return
    start = (tiles[0][1], tiles[0][2])
    reached = {start}
    queue = deque([start])
    while queue:
        q, r = queue.popleft()
        for dq, dr in DIRECTIONS:
            near = (q + dq, r + dr)
            if near in cells and near not in reached:
                reached.add(near)
                queue.append(near)
    if len(reached) != len(cells):
        lost = next(i for cell, i in cells.items() if cell not in reached)
        raise _fail(f"board[{lost}]: not connected to board[0]; the tiles must form one group")


def _check_colours(
    tiles: list[tuple[int, int, int, int]], cells: dict[tuple[int, int], int]
) -> None:
    for i, (tile, q, r, rotation) in enumerate(tiles):
        word = WORDS[tile][rotation]
        for edge, (dq, dr) in enumerate(DIRECTIONS):
            j = cells.get((q + dq, r + dr))
            if j is None or j < i:
                continue
            other, _, _, other_rotation = tiles[j]
            facing = edge_colour(WORDS[other][other_rotation], (edge + 3) % 6)
            if edge_colour(word, edge) != facing:
                raise _fail(f"board[{i}] and board[{j}]: the edge colours where they touch differ")


def legal_moves(position: Any) -> list[dict[str, Any]]:
    """Legal moves of the mover in the current stage of a ``tantrix-position/1``.

    The legal forced fills if there are any; otherwise every legal placement if the free move
    is still to be made; otherwise none (the turn is over). Sorted by tile, q, r, rotation.
    Raises ``MalformedPosition`` for a malformed position.

    On the fast board (``fastboard``), with R2 and R3 judged once per cell; a hand-built
    position whose own forced spaces already fail the R3 simulation goes to the literal board,
    and so does one that is not connected or not colour-matched (which raises the literal
    board's ``MalformedPosition``).
    """
    read = _read_plain(position)
    if read is None:
        read = read_position(position, whole=False)  # raises, with the message, when malformed
    tiles, hand, bag_empty, free_move_made = read
    # The fast board's cells are placed by the box of the tiles (an empty board: (0, 0)).
    if tiles:
        q_col = [q for _, q, _, _ in tiles]
        r_col = [r for _, _, r, _ in tiles]
        q_low, r_low = min(q_col), min(r_col)
        q_span, r_span = max(q_col) - q_low, max(r_col) - r_low
        if q_span > fb.SPAN or r_span > fb.SPAN:
            return literal_legal_moves(position)  # too wide to be connected: the literal says so
    else:
        q_low = r_low = q_span = r_span = 0
    g = fb.grids_take()
    try:
        found = _fast_moves(g, tiles, hand, not bag_empty, free_move_made, q_low, r_low)
    finally:
        fb.grids_give(g, q_span, r_span)
    if found is None:
        return literal_legal_moves(position)  # raises when the position is malformed
    # (tile, q, r, rotation) tuples sort in the order of the contract at C speed; the dicts
    # are made once, in that order.
    found.sort()
    forced = bool(found) and found[0][4]
    return [
        {"tile": tile, "q": q, "r": r, "rotation": rotation, "forced": forced}
        for tile, q, r, rotation, _ in found
    ]


_BOARD_ROW = itemgetter("tile", "q", "r", "rotation")


def _read_plain(data: Any) -> tuple[Tiles, list[int], bool, bool] | None:
    """``read_position(data, whole=False)`` for a well-formed parsed position, checked by
    columns at C speed (as adjudicate reads records); None for anything else, which the full
    reader then words. Only what the full reader accepts is accepted, with the same result."""
    if type(data) is not dict or data.keys() != POSITION_KEYS:
        return None
    if type(data["format"]) is not str or data["format"] != POSITION_FORMAT:
        return None
    bag_empty, free_move_made = data["bag_empty"], data["free_move_made"]
    if type(bag_empty) is not bool or type(free_move_made) is not bool:
        return None
    hand, entries = data["hand"], data["board"]
    if type(hand) is not list or not 1 <= len(hand) <= HAND_SIZE or type(entries) is not list:
        return None
    if set(map(type, hand)) != {int} or min(hand) < 1 or max(hand) > TILE_COUNT:
        return None
    if len(entries) + len(hand) > TILE_COUNT:
        return None
    if not entries:
        return ([], list(hand), bag_empty, free_move_made) if len(set(hand)) == len(hand) else None
    if set(map(type, entries)) != {dict} or set(map(len, entries)) != {4}:
        return None
    try:
        tiles = list(map(_BOARD_ROW, entries))  # four keys, the four wanted: no other key
    except KeyError:
        return None
    tile_col, q_col, r_col, rot_col = zip(*tiles, strict=True)
    if set(map(type, chain(tile_col, q_col, r_col, rot_col))) != {int}:
        return None
    if min(tile_col) < 1 or max(tile_col) > TILE_COUNT or min(rot_col) < 0 or max(rot_col) > 5:
        return None
    if len(set(chain(tile_col, hand))) != len(tiles) + len(hand):
        return None  # a tile twice
    if len(set(zip(q_col, r_col, strict=True))) != len(tiles):
        return None  # a cell twice
    return tiles, list(hand), bag_empty, free_move_made


def _fast_moves(
    g: fb.Grids,
    tiles: Tiles,
    hand: list[int],
    restricted: bool,
    free_move_made: bool,
    q_low: int,
    r_low: int,
) -> list[tuple[int, int, int, int, bool]] | None:
    """(tile, q, r, rotation, forced) of the legal moves, in no particular order.

    None when the board is not one colour-matched group, or its closure fails.
    """
    forced: set[int] = set()
    cells: list[int] = []
    spaces: list[int] = []  # the empty cells next to a tile, each once (and some covered later)
    tr_at, pat, cl = g
    occupied = fb.OCCUPIED
    base = fb.base_of(q_low, r_low)
    stride = fb.STRIDE
    two = 2 * fb.SIDE
    three = 3 * fb.SIDE
    placing = fb.PLACING
    links = fb.LINKS
    linked = True  # every tile after the first touches one listed before it
    for tile, q, r, rotation in tiles:
        cell = q * stride + r + base
        tr = tile * 6 + rotation
        near_pat = pat[cell]
        if near_pat:
            opens = placing[near_pat << 9 | tr]
            if opens is None:
                return None  # touches an earlier tile with another colour
            forced.discard(cell)
        else:
            opens = links[tr]
            if cells:
                linked = False
        tr_at[cell] = tr
        cl[cell] = occupied
        for delta, face, _ in opens:
            near = cell + delta
            sides = pat[near] + face
            pat[near] = sides
            if sides < two:
                spaces.append(near)
            elif sides >= three:
                forced.add(near)
        cells.append(cell)
    # Listed in the order of a game, every tile touches an earlier one, which proves the group
    # connected; any other order is searched.
    if not linked and not fb.connected(cells, tr_at):
        return None
    if restricted and forced and fb.rebuild(forced, g) < 0:
        return None
    held = sum(1 << tile for tile in hand)
    found = fb.listing(list(forced), held, restricted, g, forced, q_low, r_low, True)
    if found or free_move_made:
        return found
    if not cells:
        q, r = fb.coords(base, q_low, r_low)
        return [(tile, q, r, tr % 6, False) for tile, tr in fb.FITS[0] if held >> tile & 1]
    return fb.listing(spaces, held, restricted, g, forced, q_low, r_low, False)


def literal_legal_moves(position: Any) -> list[dict[str, Any]]:
    """The literal board's legal moves (the oracle of ``legal_moves``, same contract)."""
    board, hand, bag_empty, free_move_made = parse_position(position)
    restricted = not bag_empty
    found = [
        (cell, tile, rotation, True)
        for cell, tile, rotation in board.forced_fills(hand, restricted)
    ]
    if not found and not free_move_made:
        found = [
            (cell, tile, rotation, False)
            for cell, tile, rotation in board.placements(hand, restricted)
        ]
    moves = []
    for cell, tile, rotation, forced in found:
        q, r = board.coords(cell)
        moves.append({"tile": tile, "q": q, "r": r, "rotation": rotation, "forced": forced})
    moves.sort(key=lambda move: (move["tile"], move["q"], move["r"], move["rotation"]))
    return moves
