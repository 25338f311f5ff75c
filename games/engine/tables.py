"""Precomputed tables: colours, integer cell keys, rotated tiles and fits.

Everything the replay does many times per placement is looked up here instead of recomputed:
the colour on each edge of each tile in each rotation, what that tile shows to each neighbour,
and which (tile, rotation) pairs fit a given pattern of required colours.

Encodings (chosen so that the hot checks are one or two integer operations):

- A colour is one bit: red 1, yellow 2, blue 4, green 8.
- A *word* packs six colours, edge ``i`` in bits ``4*i .. 4*i+3``. A placed tile's word says what
  it shows on each edge; an empty cell's *pattern* is the same packing of the colours its
  occupied neighbours show towards it (0 on sides with no neighbour). Because each colour is a
  single bit, ``pattern.bit_count()`` is the number of occupied neighbours, and a tile fits a
  space exactly when ``word & occupied_mask(pattern) == pattern``.
- A cell is the integer ``(dq + HALF) * STRIDE + (dr + HALF)`` where ``(dq, dr)`` is its offset
  from the board's origin (the first tile placed). All 56 tiles form one connected group, so no
  tile is more than 55 steps from the first one and offsets stay well inside ``+-HALF``: a
  neighbour is then just ``cell + DELTAS[i]``, without wrap-around.
"""

from __future__ import annotations

from .tiles import TILE_DATA

TILE_COUNT = 56
HAND_SIZE = 6
ROTATIONS = 6

COLOUR_NAMES: tuple[str, ...] = ("red", "yellow", "blue", "green")
LETTER_BIT: dict[str, int] = {"R": 1, "Y": 2, "B": 4, "G": 8}
NAME_BIT: dict[str, int] = {"red": 1, "yellow": 2, "blue": 4, "green": 8}
BIT_NAME: dict[int, str] = {bit: name for name, bit in NAME_BIT.items()}

# Axial directions, clockwise from the top, in the order of the tile edges (rules.md, Geometry).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

STRIDE = 128
HALF = 64
# Offsets beyond REACH (in q or in r) from the origin can never touch a tile of a connected
# board of at most 56 tiles; the replay reports such cells as not adjacent without keying them.
REACH = 60
BOARD_SIZE = STRIDE * STRIDE
ORIGIN = HALF * STRIDE + HALF
DELTAS: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in DIRECTIONS)
DELTA_SET: frozenset[int] = frozenset(DELTAS)
# A bit in each nibble: multiplied by a colour bit it gives "that colour on every edge".
NIBBLES = 0x111111


def cell_key(dq: int, dr: int) -> int:
    """Integer key of the cell at offset (dq, dr) from the origin (both within +-REACH)."""
    return (dq + HALF) * STRIDE + dr + HALF


def cell_offset(cell: int) -> tuple[int, int]:
    """Offset (dq, dr) from the origin of an integer cell key."""
    return cell // STRIDE - HALF, cell % STRIDE - HALF


def occupied_mask(pattern: int) -> int:
    """All four bits of every edge nibble that holds a colour (i.e. has a neighbour)."""
    return ((pattern | pattern >> 1 | pattern >> 2 | pattern >> 3) & NIBBLES) * 15


def edge_colour(word: int, edge: int) -> int:
    """Colour bit shown on ``edge`` (0 when the edge is empty)."""
    return (word >> (4 * edge)) & 15


def _rotated_word(colours: str, rotation: int) -> int:
    # rules.md: with rotation k, edge i shows colours[(i - k) mod 6].
    word = 0
    for edge in range(6):
        word |= LETTER_BIT[colours[(edge - rotation) % 6]] << (4 * edge)
    return word


# TILE_COLOURS[t] is the printed colour string of tile t (index 0 unused).
TILE_COLOURS: tuple[str, ...] = ("",) + tuple(colours for _, colours, _, _ in TILE_DATA)

# WORDS[t][k]: the word of tile t placed with rotation k.
WORDS: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple(_rotated_word(colours, k) for k in range(ROTATIONS)) for colours in TILE_COLOURS[1:]
)


def _faces(word: int) -> tuple[int, ...]:
    # What a tile adds to the pattern of its neighbour in direction i: its edge-i colour, moved
    # to the neighbour's facing edge (i + 3) mod 6.
    return tuple(edge_colour(word, i) << (4 * ((i + 3) % 6)) for i in range(6))


# FACES[t][k][i]: the pattern contribution of tile t (rotation k) to its neighbour in direction i.
FACES: tuple[tuple[tuple[int, ...], ...], ...] = ((),) + tuple(
    tuple(_faces(word) for word in words) for words in WORDS[1:]
)


def _sides(word: int) -> dict[int, tuple[int, int]]:
    found: dict[int, list[int]] = {}
    for edge in range(6):
        found.setdefault(edge_colour(word, edge), []).append(edge)
    return {bit: (edges[0], edges[1]) for bit, edges in found.items()}


# PATH_SIDES[t][k][bit]: the two edges joined by the path of colour ``bit`` (absent colour: no key).
PATH_SIDES: tuple[tuple[dict[int, tuple[int, int]], ...], ...] = ((),) + tuple(
    tuple(_sides(word) for word in words) for words in WORDS[1:]
)

_ALL_PLACINGS: tuple[tuple[int, int, int], ...] = tuple(
    (tile, rotation, WORDS[tile][rotation])
    for tile in range(1, TILE_COUNT + 1)
    for rotation in range(ROTATIONS)
)

_FIT_CACHE: dict[int, tuple[tuple[int, int, int], ...]] = {}


def fits(pattern: int) -> tuple[tuple[int, int, int], ...]:
    """Every (tile, rotation, word) whose edges match ``pattern`` on its occupied sides.

    Computed once per pattern and cached for the life of the process: there are at most
    5**6 patterns, and a game meets only a few hundred of them.
    """
    found = _FIT_CACHE.get(pattern)
    if found is None:
        mask = occupied_mask(pattern)
        found = tuple(p for p in _ALL_PLACINGS if p[2] & mask == pattern)
        _FIT_CACHE[pattern] = found
    return found


def pattern_colours(pattern: int) -> list[tuple[int, int]]:
    """(edge, colour bit) for every occupied side of a pattern, clockwise from N."""
    return [(edge, edge_colour(pattern, edge)) for edge in range(6) if edge_colour(pattern, edge)]
