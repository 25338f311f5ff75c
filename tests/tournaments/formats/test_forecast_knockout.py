"""A knockout's forecast: exact over the bracket, played results fixed, checked against a
seeded simulation of the same bracket."""

from __future__ import annotations

import random
from math import sqrt

import pytest

from tournaments.formats.forecast import (
    ChanceTable,
    GameModel,
    KnockoutMatch,
    MatchFormat,
    knockout_forecast,
)

TABLE = ChanceTable(GameModel(), MatchFormat(2))


def bracket(size: int, decided: dict | None = None) -> list[KnockoutMatch]:
    """A full bracket of `size` entrants 0..size-1, first round 0 v 1, 2 v 3, ...; `decided`:
    {(round, index): winner} for matches already over."""
    decided = decided or {}
    matches = []
    rounds = size.bit_length() - 1
    for number in range(1, rounds + 1):
        for index in range(size >> number):
            sides = (2 * index, 2 * index + 1) if number == 1 else (None, None)
            if number > 1:
                # A side is known once its feeder is decided.
                feeders = [(number - 1, 2 * index), (number - 1, 2 * index + 1)]
                sides = tuple(decided.get(f) for f in feeders)
            key = (number, index)
            matches.append(
                KnockoutMatch(
                    key=key,
                    round=number,
                    sides=sides,
                    next=((number + 1, index // 2), index % 2) if number < rounds else None,
                    decided=key in decided,
                    winner=decided.get(key),
                )
            )
    return matches


def chance_by(ratings):
    return lambda a, b: TABLE.chance(ratings[a] - ratings[b])


def test_each_rounds_chances_add_up_to_its_places_and_the_title_to_one():
    rng = random.Random(4)
    ratings = [rng.gauss(1850, 250) for _ in range(32)]
    forecast = knockout_forecast(bracket(32), chance_by(ratings))
    assert forecast.rounds == (1, 2, 3, 4, 5)
    for number in forecast.rounds:
        places = 2 * (32 >> number)
        total = sum(reach.get(number, 0.0) for reach in forecast.reach.values())
        assert total == pytest.approx(places, abs=1e-9)
    assert sum(forecast.win.values()) == pytest.approx(1.0, abs=1e-12)


def test_equal_entrants_are_equally_likely():
    forecast = knockout_forecast(bracket(8), chance_by([1850.0] * 8))
    for entrant in range(8):
        assert forecast.win[entrant] == pytest.approx(1 / 8, abs=1e-12)
        assert forecast.reach[entrant][3] == pytest.approx(1 / 4, abs=1e-12)
    assert all(m == pytest.approx((0.5, 0.5)) for m in forecast.matches.values())


def test_a_played_result_fixes_the_winner():
    ratings = [2300.0, 1500.0, 1850.0, 1850.0]
    # The weak entrant 1 beat the strong entrant 0: 1 is in the final for certain, 0 is out.
    forecast = knockout_forecast(bracket(4, {(1, 0): 1}), chance_by(ratings))
    assert forecast.reach[1][2] == 1.0
    assert forecast.reach[0].get(2, 0.0) == 0.0
    assert forecast.win.get(0, 0.0) == 0.0
    # The final's other side is still open: 2 and 3 go there half the time each.
    assert forecast.reach[2][2] == pytest.approx(0.5)
    # Decided all the way: the champion's chance is 1.
    done = knockout_forecast(bracket(4, {(1, 0): 1, (1, 1): 3, (2, 0): 3}), chance_by(ratings))
    assert done.win == {3: 1.0}
    assert done.matches == {}


def test_an_unfinished_match_counts_from_where_it_stands():
    matches = bracket(4)
    matches[0] = KnockoutMatch(key=(1, 0), round=1, sides=(0, 1), next=((2, 0), 0), chance_a=0.9)
    forecast = knockout_forecast(matches, chance_by([1850.0] * 4))
    assert forecast.matches[(1, 0)] == pytest.approx((0.9, 0.1))
    assert forecast.reach[0][2] == pytest.approx(0.9)


def test_a_stronger_entrant_is_likelier_to_win():
    rng = random.Random(9)
    ratings = [rng.gauss(1850, 200) for _ in range(16)]
    before = knockout_forecast(bracket(16), chance_by(ratings)).win[5]
    ratings[5] += 100
    after = knockout_forecast(bracket(16), chance_by(ratings)).win[5]
    assert after > before


def test_a_bye_and_a_void_match_send_the_other_side_on():
    matches = [
        KnockoutMatch((1, 0), 1, (0, None), ((2, 0), 0), decided=True, winner=0),  # a bye
        KnockoutMatch((1, 1), 1, (2, 3), ((2, 0), 1), decided=True, winner=None),  # void
        KnockoutMatch((2, 0), 2, (0, None)),
    ]
    forecast = knockout_forecast(matches, chance_by([1850.0] * 4))
    assert forecast.win == {0: 1.0}


def test_the_exact_forecast_is_what_a_simulation_converges_to():
    rng = random.Random(11)
    ratings = [rng.gauss(1850, 300) for _ in range(16)]
    chance = chance_by(ratings)
    exact = knockout_forecast(bracket(16), chance)
    runs = 40_000
    wins = [0] * 16
    for _ in range(runs):
        alive = list(range(16))
        while len(alive) > 1:
            pairs = zip(alive[::2], alive[1::2], strict=True)
            alive = [a if rng.random() < chance(a, b) else b for a, b in pairs]
        wins[alive[0]] += 1
    for entrant in range(16):
        p = exact.win.get(entrant, 0.0)
        error = 4 * sqrt(max(p * (1 - p), 1e-6) / runs)
        assert abs(wins[entrant] / runs - p) < error
