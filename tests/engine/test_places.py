"""Cells and turns in a player's words (games/engine/places.py): exact, short, one walk per cell."""

from __future__ import annotations

import pytest

from games.engine.places import (
    DIRECTIONS,
    STEPS,
    Place,
    degrees,
    english_place,
    english_turn,
    place,
    place_from,
)


def hex_distance(q: int, r: int) -> int:
    return (abs(q) + abs(r) + abs(q + r)) // 2


def cells_within(radius: int) -> list[tuple[int, int]]:
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if hex_distance(q, r) <= radius
    ]


def walk(where: Place) -> tuple[int, int]:
    """The cell a description leads to, followed step by step."""
    if where.steps == 0:
        return (0, 0)
    (x1, y1), (x2, y2) = STEPS[where.direction], STEPS[where.more_direction]
    return (where.steps * x1 + where.more * x2, where.steps * y1 + where.more * y2)


def test_rings_0_to_3_every_cell_reads_differently_and_leads_back_to_itself() -> None:
    cells = cells_within(3)
    assert len(cells) == 1 + 6 + 12 + 18
    texts = {english_place(place(q, r)) for q, r in cells}
    assert len(texts) == len(cells)
    for q, r in cells:
        where = place(q, r)
        assert walk(where) == (q, r)
        assert where.ring == hex_distance(q, r)


def test_walks_are_canonical_far_from_the_first_tile_too() -> None:
    for q, r in [(40, -7), (-13, 25), (0, 99), (-50, 0), (17, -17)]:
        where = place(q, r)
        assert walk(where) == (q, r)
        assert where.steps > 0 and where.more >= 0


@pytest.mark.parametrize("direction", range(6))
def test_each_neighbour_is_one_step_in_its_compass_direction(direction: int) -> None:
    where = place(*STEPS[direction])
    assert where == Place(1, direction, 0)
    assert english_place(where) == f"1 step {DIRECTIONS[direction]} of the first tile"


def test_the_words_for_a_few_cells() -> None:
    assert english_place(place(0, 0)) == "on the first tile's space"
    assert english_place(place(0, -2)) == "2 steps north of the first tile"
    assert english_place(place(-2, 2)) == "2 steps south-west of the first tile"
    assert english_place(place(1, -2)) == "1 step north then 1 north-east of the first tile"
    assert english_place(place(-3, 1)) == "1 step south-west then 2 north-west of the first tile"


def test_cells_are_told_from_the_records_first_tile() -> None:
    assert place_from(3, -1, (3, -1)) == Place(0, 0, 0)
    assert place_from(3, -3, (3, -1)) == place(0, -2)


@pytest.mark.parametrize(
    ("rotation", "words"),
    [
        (0, "not turned"),
        (1, "turned 60° clockwise"),
        (2, "turned 120° clockwise"),
        (3, "turned 180° clockwise"),
        (4, "turned 240° clockwise"),
        (5, "turned 300° clockwise"),
    ],
)
def test_rotations_in_degrees(rotation: int, words: str) -> None:
    assert degrees(rotation) == rotation * 60
    assert english_turn(rotation) == words
