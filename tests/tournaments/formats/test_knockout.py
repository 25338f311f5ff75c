"""Knockout draws: chart, byes, sections, qualifiers, next slot and advancing winners."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import (
    BracketSlot,
    FormatError,
    QualifierPolicy,
    advance_bracket,
    bracket_size,
    chart_order,
    first_round_pairs,
    next_slot,
    place_qualifiers,
    round_count,
    section_of,
    sections_draw,
    seeded_draw,
)


def test_chart_of_8():
    assert first_round_pairs(8) == ((1, 8), (4, 5), (2, 7), (3, 6))


def test_chart_of_16():
    assert first_round_pairs(16) == (
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    )  # fmt: skip


def test_chart_of_128():
    pairs = first_round_pairs(128)
    assert pairs[:4] == ((1, 128), (64, 65), (32, 97), (33, 96))
    assert len(pairs) == 64
    assert all(a + b == 129 for a, b in pairs)
    # Seeds 1 and 2 in opposite halves, 1-4 in different quarters.
    chart = chart_order(128)
    assert chart.index(1) < 64 <= chart.index(2)
    assert sorted(chart.index(s) // 32 for s in (1, 2, 3, 4)) == [0, 1, 2, 3]


def test_favourites_meet_as_the_chart_promises():
    # If the better seed always wins, round r pairs seed s with seed (2^(R-r+1) + 1 - s).
    size = 64
    alive = list(chart_order(size))
    while len(alive) > 1:
        pairs = list(zip(alive[::2], alive[1::2], strict=True))
        assert all(a + b == len(alive) + 1 for a, b in pairs)
        alive = [min(pair) for pair in pairs]


def test_byes_for_12_of_16_go_to_seeds_1_to_4():
    pairs = first_round_pairs(12)
    assert sorted(a for a, b in pairs if b is None) == [1, 2, 3, 4]
    assert {b for a, b in pairs if b is not None} | {a for a, _ in pairs} == set(range(1, 13))


def test_byes_for_100_of_128_go_to_seeds_1_to_28():
    pairs = first_round_pairs(100)
    assert sorted(a for a, b in pairs if b is None) == list(range(1, 29))
    assert bracket_size(100) == 128 and round_count(100) == 7


@given(st.integers(min_value=2, max_value=256))
def test_every_seed_appears_once_in_a_chart_of_any_size(entries):
    draw = seeded_draw(entries)
    size = bracket_size(entries)
    assert len(draw) == size and size // 2 < entries <= size
    assert sorted(s for s in draw if s is not None) == list(range(1, entries + 1))
    byes = [a for a, b in first_round_pairs(entries) if b is None]
    assert sorted(byes) == list(range(1, size - entries + 1))


def test_too_few_entries_for_a_knockout():
    with pytest.raises(FormatError, match="at least 2 entries"):
        first_round_pairs(1)


def test_next_slot():
    assert next_slot(1, 0, rounds=3) == BracketSlot(2, 0, 0)
    assert next_slot(1, 3, rounds=3) == BracketSlot(2, 1, 1)
    assert next_slot(2, 1, rounds=3) == BracketSlot(3, 0, 1)
    assert next_slot(3, 0, rounds=3) is None  # the final
    assert next_slot(1, 37, rounds=7) == BracketSlot(2, 18, 1)
    with pytest.raises(ValueError):
        next_slot(1, 4, rounds=3)  # an 8-bracket has matches 0..3 in round 1


def _band_rows(positions, sections, band):
    size = len(positions)
    return sorted(section_of(p, size, sections) for p, s in enumerate(positions) if s in band)


def test_sections_draw_is_reproducible_and_keeps_sections_balanced():
    a = sections_draw(128, sections=8, draw_seed=2026)
    assert a == sections_draw(128, sections=8, draw_seed=2026)
    assert a != sections_draw(128, sections=8, draw_seed=2027)
    chart = chart_order(128)
    # Top 8 seeds stay at their chart positions, one per section.
    for s in range(1, 9):
        assert a.index(s) == chart.index(s)
    # Every band of 8 seeds (9-16, 17-24, ...) is spread one per section.
    for low in range(9, 129, 8):
        assert _band_rows(a, 8, range(low, low + 8)) == list(range(8))
    assert sorted(a) == list(range(1, 129))


def test_two_fixed_seeds_and_doubling_bands():
    # 1 and 2 fixed at top and bottom; 3-4 drawn into the other two quarters, 5-8 into the
    # eighths that hold no seed 1-4, then 9-16, 17-32 and 33-64, each band among its lines.
    for draw_seed in range(10):
        draw = sections_draw(64, sections=32, draw_seed=draw_seed, fixed=2)
        assert draw[0] == 1 and draw[32] == 2
        assert sorted(draw.index(s) // 16 for s in (1, 2, 3, 4)) == [0, 1, 2, 3]
        assert sorted(draw.index(s) // 8 for s in range(1, 9)) == list(range(8))
        assert sorted(draw.index(s) // 2 for s in range(1, 33)) == list(range(32))


def test_sections_draw_keeps_byes_with_the_top_seeds():
    for draw_seed in range(20):
        draw = sections_draw(100, sections=8, draw_seed=draw_seed, fixed=2)
        byes = [draw[i] for i in range(0, 128, 2) if draw[i + 1] is None]
        byes += [draw[i + 1] for i in range(0, 128, 2) if draw[i] is None]
        assert sorted(byes) == list(range(1, 29))
        assert sorted(s for s in draw if s is not None) == list(range(1, 101))


def test_sections_draw_errors():
    with pytest.raises(FormatError, match="sections"):
        sections_draw(16, sections=3, draw_seed=1)
    with pytest.raises(FormatError, match="sections"):
        sections_draw(16, sections=16, draw_seed=1)


def test_qualifiers_against_the_top_seeds():
    # 96 direct entrants and 32 qualifiers: qualifiers meet seeds 1-32, the last one seed 1.
    draw = place_qualifiers(96, 32, policy=QualifierPolicy.AGAINST_TOP_SEEDS)
    pairs = list(zip(draw[::2], draw[1::2], strict=True))
    opponents = {min(a, b): max(a, b) for a, b in pairs if max(a, b) > 96}
    assert sorted(opponents) == list(range(1, 33))
    assert opponents[1] == 128 and opponents[32] == 97
    # With a draw seed, the qualifiers are drawn among the same positions.
    drawn = place_qualifiers(96, 32, policy=QualifierPolicy.AGAINST_TOP_SEEDS, draw_seed=5)
    assert [s if s <= 96 else 0 for s in drawn] == [s if s <= 96 else 0 for s in draw]
    assert drawn != draw


def test_qualifiers_with_byes_face_the_seeds_after_the_byes():
    # 90 direct + 20 qualifiers = 110 of 128: seeds 1-18 get byes, qualifiers meet 19-38.
    draw = place_qualifiers(90, 20, policy=QualifierPolicy.AGAINST_TOP_SEEDS)
    pairs = list(zip(draw[::2], draw[1::2], strict=True))
    assert sorted(a for a, b in pairs if b is None) == list(range(1, 19))
    assert sorted(a for a, b in pairs if b is not None and b > 90) == list(range(19, 39))


def test_qualifiers_drawn_into_sections():
    kwargs = {"policy": QualifierPolicy.DRAWN_INTO_SECTIONS, "sections": 8}
    draw = place_qualifiers(96, 32, draw_seed=11, **kwargs)
    assert draw == place_qualifiers(96, 32, draw_seed=11, **kwargs)
    assert draw != place_qualifiers(96, 32, draw_seed=12, **kwargs)
    assert sorted(draw) == list(range(1, 129))
    # Four qualifiers in each of the 8 sections, and the 8 section heads at chart positions.
    per_section = [0] * 8
    for position, s in enumerate(draw):
        if s > 96:
            per_section[section_of(position, 128, 8)] += 1
    assert per_section == [4] * 8
    chart = chart_order(128)
    assert all(draw.index(s) == chart.index(s) for s in range(1, 9))
    with pytest.raises(ValueError, match="draw_seed"):
        place_qualifiers(96, 32, **kwargs)


def test_advance_a_whole_bracket_with_byes():
    draw = seeded_draw(6)  # 1, -, 4, 5, 2, -, 3, 6
    bracket = advance_bracket(draw, {})
    assert [m.winner for m in bracket[0]] == [1, None, 2, None]
    assert [m.bye for m in bracket[0]] == [True, False, True, False]
    assert (bracket[1][0].top, bracket[1][0].bottom) == (1, None)
    assert bracket[1][0].ready is False and bracket[0][1].ready is True
    results = {(1, 1): 1, (1, 3): 0, (2, 0): 1, (2, 1): 0, (3, 0): 0}
    bracket = advance_bracket(draw, results)
    assert (bracket[1][0].top, bracket[1][0].bottom, bracket[1][0].winner) == (1, 5, 5)
    assert (bracket[1][1].top, bracket[1][1].bottom, bracket[1][1].winner) == (2, 3, 2)
    assert bracket[2][0].winner == 5


def test_advance_128_random_results_everyone_but_one_loses_once():
    rng = random.Random(3)
    results = {(r, i): rng.randint(0, 1) for r in range(1, 8) for i in range(128 >> r)}
    bracket = advance_bracket(seeded_draw(128), results)
    losers = []
    for rnd in bracket:
        for m in rnd:
            losers.append(m.bottom if m.winner == m.top else m.top)
    champion = bracket[-1][0].winner
    assert sorted([*losers, champion]) == list(range(1, 129))


def test_advance_errors():
    draw = seeded_draw(8)
    with pytest.raises(FormatError, match="not both known"):
        advance_bracket(draw, {(2, 0): 0})
    with pytest.raises(FormatError, match="does not have"):
        advance_bracket(draw, {(4, 0): 0})
    with pytest.raises(FormatError, match="is a bye"):
        advance_bracket(seeded_draw(7), {(1, 0): 1})
    with pytest.raises(FormatError, match="bye on both lines"):
        advance_bracket([1, None, None, None], {})
