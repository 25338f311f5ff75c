"""Knockout round and slot names (pure)."""

from __future__ import annotations

import pytest

from tournaments.formats.labels import knockout_round_names, slot_name, waiting_slot


def test_a_128_knockout_names_its_seven_rounds():
    names = [knockout_round_names(n, 7) for n in range(1, 8)]
    assert [n.plural for n in names] == [
        "Round of 128",
        "Round of 64",
        "Round of 32",
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert [n.short for n in names] == ["R128", "R64", "R32", "R16", "QF", "SF", "Final"]
    assert names[5].singular == "Semi-final" and names[4].singular == "Quarter-final"


def test_slots_are_numbered_from_the_top_and_the_final_has_no_number():
    assert slot_name(2, 3, 1) == "SF 2"
    assert slot_name(3, 3, 0) == "Final"
    assert waiting_slot(5, 7, 1) == "Winner of QF 2"
    assert waiting_slot(1, 7, 63) == "Winner of R128 64"


@pytest.mark.parametrize("number", [0, 4])
def test_a_round_outside_the_knockout_is_refused(number):
    with pytest.raises(ValueError):
        knockout_round_names(number, 3)
