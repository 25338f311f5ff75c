"""The engine's own tile data, checked against the shared spec and against the rules' facts."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from games.engine.tables import WORDS, edge_colour
from games.engine.tiles import TILE_DATA

from .support import SPEC, edges

TILES_CSV = SPEC / "tiles.csv"


@pytest.mark.skipif(not TILES_CSV.exists(), reason=f"{TILES_CSV} is absent (no shared spec here)")
def test_tile_data_agrees_with_the_shared_spec() -> None:
    with TILES_CSV.open(newline="") as handle:
        rows = [
            (int(row["number"]), row["colours"], row["pattern"], row["family"])
            for row in csv.DictReader(handle)
        ]
    assert tuple(rows) == TILE_DATA


def test_fifty_six_tiles_numbered_in_order() -> None:
    assert [number for number, *_ in TILE_DATA] == list(range(1, 57))


def test_families_and_colour_counts() -> None:
    assert Counter(family for *_, family in TILE_DATA) == {
        "Rond": 8,
        "Sint": 24,
        "Brid": 12,
        "Chin": 12,
    }
    for letter in "RYBG":
        assert sum(letter in colours for _, colours, _, _ in TILE_DATA) == 42


def test_each_tile_has_three_colours_on_two_edges_each_matching_its_pattern() -> None:
    for _, colours, pattern, _ in TILE_DATA:
        assert sorted(Counter(colours).values()) == [2, 2, 2]
        # Equal letters in the pattern join edges of one path, so they carry one colour.
        for letter in set(pattern):
            assert len({colours[i] for i in range(6) if pattern[i] == letter}) == 1


def test_no_two_tiles_alike_even_rotated() -> None:
    seen: dict[str, int] = {}
    for number, colours, _, _ in TILE_DATA:
        for k in range(6):
            turned = colours[k:] + colours[:k]
            assert seen.setdefault(turned, number) == number


def test_rotation_tables_follow_the_rules_formula() -> None:
    letter_of = {1: "R", 2: "Y", 4: "B", 8: "G"}
    for number in range(1, 57):
        for k in range(6):
            shown = "".join(letter_of[edge_colour(WORDS[number][k], i)] for i in range(6))
            assert shown == edges(number, k)
