"""The rules of rules.md on hand-built positions: placing, forced spaces, R1, R2, R3, endgame."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import MalformedPosition, legal_moves
from games.engine.board import CONTROLLED_SIDE, FOUR_SIDED_SPACE, THREE_OF_A_COLOUR, Board
from games.engine.position import parse_position
from games.engine.tables import WORDS

from .support import (
    FLOWER,
    NO_YELLOW_DEAD,
    edges,
    frontier,
    literal_r3,
    matching_board,
    position,
    random_blob,
    required,
    rotations,
    sides,
)

# rules.md worked example: a row to the south-east and one to the south-west of (0, 0).
WORKED = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (-1, 1), (-2, 2), (-3, 3)]
CONTROLLED = [(1, 1), (2, 1), (3, 1), (4, 1), (-1, 2), (-2, 3), (-3, 4)]
FINE = [(5, 0), (-4, 4), (0, -1), (-2, 1)]

# Two tiles leave (0, 1) with two blue sides; tile 3 at (-1, 1) in rotation 5 would add a third.
R1_BOARD = {(0, 0): (1, 0), (1, 0): (2, 4)}
# (0, 1) is a forced space; tile 6 fits it only in rotation 0, which shows blue towards (1, 1),
# a space already blue on its two other sides.
R1_FILL_BOARD = {(1, 0): (1, 0), (2, 0): (2, 4), (0, 0): (3, 4), (-1, 1): (4, 0)}


def build(board) -> Board:
    built, _, _, _ = parse_position(position(board, [56]))
    return built


def key(built: Board, q: int, r: int) -> int:
    cell = built.key(q, r)
    assert cell is not None
    return cell


def moves_at(moves, q, r):
    return [m for m in moves if (m["q"], m["r"]) == (q, r)]


# ---------------------------------------------------------------------------- placing
def test_first_tile_goes_on_the_origin_in_any_rotation() -> None:
    moves = legal_moves(position([], [5, 9]))
    assert {(m["q"], m["r"]) for m in moves} == {(0, 0)}
    assert sorted((m["tile"], m["rotation"]) for m in moves) == [
        (tile, k) for tile in (5, 9) for k in range(6)
    ]
    assert not any(m["forced"] for m in moves)


def test_every_move_touches_the_group_and_matches_every_neighbour() -> None:
    board = matching_board([(0, 0), (1, 0), (1, -1)])
    hand = [20, 30, 40, 50]
    moves = legal_moves(position(board, hand))
    assert moves
    cells = frontier(board)
    for move in moves:
        cell = (move["q"], move["r"])
        assert cell in cells
        shown = edges(move["tile"], move["rotation"])
        assert all(shown[e] == c for e, c in required(board, cell).items())
    # ... and every matching placement (none is restricted on this small board) is listed.
    expected = {
        (tile, cell, k) for cell in cells for tile in hand for k in rotations(board, cell, tile)
    }
    assert {(m["tile"], (m["q"], m["r"]), m["rotation"]) for m in moves} == expected


def test_turn_over_after_the_free_move_without_forced_spaces() -> None:
    board = matching_board([(0, 0), (1, 0)])
    assert legal_moves(position(board, [20, 30], free=True)) == []


# ---------------------------------------------------------------------------- forced spaces
def test_a_forced_space_must_be_filled_before_anything_else() -> None:
    board = matching_board([(0, 0), (1, 0), (-1, 1)])
    assert sides(board, (0, 1)) == 3
    fillers = [t for t in range(1, 57) if t not in {v[0] for v in board.values()}]
    tile = next(t for t in fillers if rotations(board, (0, 1), t))
    for free in (False, True):
        for bag_empty in (False, True):
            moves = legal_moves(position(board, [tile], bag_empty=bag_empty, free=free))
            assert moves
            assert all(m["forced"] and (m["q"], m["r"]) == (0, 1) for m in moves)
            assert {m["rotation"] for m in moves} == set(rotations(board, (0, 1), tile))


def test_a_tile_that_cannot_fill_leaves_the_free_move() -> None:
    board = matching_board([(0, 0), (1, 0), (-1, 1)])
    used = {v[0] for v in board.values()}
    tile = next(t for t in range(1, 57) if t not in used and not rotations(board, (0, 1), t))
    moves = legal_moves(position(board, [tile]))
    assert moves and not any(m["forced"] for m in moves)
    # R2: before the endgame nothing goes next to the unfilled forced space.
    next_to_forced = {(1, 1), (0, 2), (-1, 2)}
    assert not any((m["q"], m["r"]) in next_to_forced for m in moves)
    ended = legal_moves(position(board, [tile], bag_empty=True))
    assert any((m["q"], m["r"]) in next_to_forced for m in ended)


# ---------------------------------------------------------------------------- R1
def test_r1_three_of_a_colour_and_its_lifting_in_the_endgame() -> None:
    assert required(R1_BOARD, (0, 1)) == {0: "B", 1: "B"}
    assert edges(3, 5)[2] == "B" and edges(3, 0)[2] != "B"
    before = moves_at(legal_moves(position(R1_BOARD, [3])), -1, 1)
    assert [m["rotation"] for m in before] == [0]
    after = moves_at(legal_moves(position(R1_BOARD, [3], bag_empty=True)), -1, 1)
    assert [m["rotation"] for m in after] == [0, 5]
    built = build(R1_BOARD)
    breach = built.breach(key(built, -1, 1), WORDS[3][5])
    assert breach is not None and breach.code == THREE_OF_A_COLOUR
    assert built.coords(breach.space) == (0, 1)


def test_r1_binds_forced_fills_and_such_a_fill_does_not_count() -> None:
    assert rotations(R1_FILL_BOARD, (0, 1), 6) == [0]
    assert edges(6, 0)[2] == "B" and required(R1_FILL_BOARD, (1, 1)) == {0: "B", 1: "B"}
    before = legal_moves(position(R1_FILL_BOARD, [6]))
    # The only fill breaks R1, so there is no forced play: the free move is due instead.
    assert before and not any(m["forced"] for m in before)
    assert not moves_at(before, 0, 1)
    after = legal_moves(position(R1_FILL_BOARD, [6], bag_empty=True))
    assert after == [{"tile": 6, "q": 0, "r": 1, "rotation": 0, "forced": True}]


# ---------------------------------------------------------------------------- R2 and R3
def test_worked_example_of_controlled_sides() -> None:
    board = matching_board(WORKED)
    assert sides(board, (0, 1)) == 3
    built = build(board)
    assert built.is_forced(key(built, 0, 1))
    for q, r in CONTROLLED:
        breach = built.space_breach(key(built, q, r))
        assert breach is not None, (q, r)
        assert not literal_r3(WORKED, (q, r))
    for q, r in FINE:
        assert built.space_breach(key(built, q, r)) is None, (q, r)
        assert literal_r3(WORKED, (q, r))
    # Next to the forced space it is R2; further along the rows it is R3 alone.
    for q, r in [(1, 1), (-1, 2)]:
        assert built.space_breach(key(built, q, r)).code == FOUR_SIDED_SPACE
    for q, r in [(2, 1), (3, 1), (4, 1), (-2, 3), (-3, 4)]:
        breach = built.space_breach(key(built, q, r))
        assert breach.code == CONTROLLED_SIDE
        assert built.coords(breach.origin) == (0, 1) and breach.existing


def test_worked_example_through_legal_moves() -> None:
    board = matching_board(WORKED)
    used = {tile for tile, _ in board.values()}
    # Tiles that cannot fill (0, 1), so that the free move is what is listed.
    hand = [t for t in range(1, 57) if t not in used and not rotations(board, (0, 1), t)][:6]
    before = {(m["q"], m["r"]) for m in legal_moves(position(board, hand))}
    after = {(m["q"], m["r"]) for m in legal_moves(position(board, hand, bag_empty=True))}
    assert not before & set(CONTROLLED)
    assert after & set(CONTROLLED)
    assert (5, 0) in before or not any(rotations(board, (5, 0), t) for t in hand)


def test_every_frontier_cell_agrees_with_the_literal_simulation_on_the_worked_example() -> None:
    built = build(matching_board(WORKED))
    for q, r in frontier(WORKED):
        fast = built.space_breach(key(built, q, r)) is None
        assert fast == literal_r3(WORKED, (q, r)), (q, r)


def _geometric_board(cells) -> Board:
    # Colours do not matter to R2/R3: put tile 1 everywhere through the low-level API.
    built = Board()
    for q, r in cells:
        built.place(key(built, q, r), 1, 0)
    return built


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(2, 22))
def test_fast_r3_equals_full_simulation_equals_literal_rule(seed: int, size: int) -> None:
    rng = random.Random(seed)
    cells = random_blob(rng, size)
    built = _geometric_board(cells)
    for q, r in sorted(frontier(cells)):
        cell = key(built, q, r)
        fast = built.space_breach(cell)
        slow = built.simulate(cell)
        literal = literal_r3(cells, (q, r))
        assert (fast is None) == (slow is None) == literal, (cells, (q, r))
        if fast is not None:
            assert fast.code == slow.code


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(3, 18))
def test_r3_outcome_does_not_depend_on_fill_order(seed: int, size: int) -> None:
    # rules.md asserts this; the engine's cached closure relies on it.
    rng = random.Random(seed)
    cells = random_blob(rng, size)
    for cell in sorted(frontier(cells)):
        first = literal_r3(cells, cell, min)
        assert literal_r3(cells, cell, max) == first
        assert literal_r3(cells, cell, lambda options: rng.choice(options)) == first


# ---------------------------------------------------------------------------- deadlock
def test_no_legal_placement_anywhere_is_an_empty_move_list() -> None:
    board = {(q, r): (tile, k) for _, tile, q, r, k in FLOWER}
    for tile in NO_YELLOW_DEAD:
        assert "Y" not in edges(tile, 0)
        # Independently: in the endgame only colours matter, and nothing matches.
        assert not any(rotations(board, cell, tile) for cell in frontier(board))
        for bag_empty in (False, True):
            assert legal_moves(position(board, [tile], bag_empty=bag_empty)) == []


# ---------------------------------------------------------------------------- positions
@pytest.mark.parametrize(
    ("document", "words"),
    [
        ("not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[]", "expected a JSON object"),
        ({}, "format: required"),
        ({**position([], [1]), "extra": 1}, "unknown key"),
        ({**position([], [1]), "format": "tantrix-game/1"}, "format: expected"),
        (position([], []), "hand: expected a list of 1 to 6"),
        (position([], [1, 2, 3, 4, 5, 6, 7]), "hand: expected a list of 1 to 6"),
        (position([], [0]), "hand[0]"),
        (position([], [True]), "hand[0]"),
        (position([], [4, 4]), "appears twice"),
        ({**position([], [1]), "bag_empty": 0}, "bag_empty: expected true or false"),
        ({**position([], [1]), "free_move_made": None}, "free_move_made"),
        (position([{"tile": 1, "q": 0, "r": 0, "rotation": 6}], [2]), "board[0].rotation"),
        (position([{"tile": 1, "q": 0.0, "r": 0, "rotation": 0}], [2]), "board[0].q"),
        (position([{"tile": 1, "q": 0, "r": 0}], [2]), "board[0].rotation: required"),
        (position([{"tile": 1, "q": 0, "r": 0, "rotation": 0}], [1]), "appears twice"),
        (position({(0, 0): (1, 0), (5, 5): (2, 0)}, [3]), "not connected"),
        (position({(0, 0): (1, 0), (0, 1): (2, 1)}, [3]), "edge colours"),
    ],
)
def test_malformed_positions_are_refused_with_a_reason(document, words) -> None:
    with pytest.raises(MalformedPosition, match=re.escape(words)):
        legal_moves(document)
    assert issubclass(MalformedPosition, ValueError)


def test_positions_from_text_and_bytes() -> None:
    import json

    doc = position(matching_board([(0, 0)]), [10])
    assert legal_moves(json.dumps(doc)) == legal_moves(json.dumps(doc).encode()) == legal_moves(doc)


def test_huge_coordinates_are_fine_for_a_connected_board() -> None:
    far = 10**30
    board = {(far + q, far + r): v for (q, r), v in matching_board([(0, 0), (1, 0)]).items()}
    moves = legal_moves(position(board, [40]))
    assert moves and all(abs(m["q"] - far) <= 2 and abs(m["r"] - far) <= 2 for m in moves)
