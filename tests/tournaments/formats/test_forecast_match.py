"""Forecasts of one game and one match: the model agrees with the Elo, with the project's own
match rules, and with itself wherever two ways of computing the same chance meet."""

from __future__ import annotations

import random
from decimal import Decimal
from itertools import product
from math import erfc, sqrt

import pytest

from tournaments.formats import MatchRules, match_state
from tournaments.formats.forecast import (
    ChanceTable,
    ForecastParams,
    GameModel,
    MatchFormat,
    MatchProgress,
    match_chance,
    pair_rating,
    sample_match,
)
from tournaments.formats.forecast.match import OutcomeTable

MODEL = GameModel()


def phi(z: float) -> float:
    return 0.5 * erfc(-z / sqrt(2))


@pytest.mark.parametrize("gap", [0, 10, 80, 300, 565.7, 1200, -250])
def test_a_games_mean_tp_share_is_the_elos_expected_share(gap):
    share = MODEL.share_at(MODEL.mu(gap))
    # Between grid points μ is interpolated: the share still agrees to a hundredth of a point.
    assert share == pytest.approx(phi(gap / 565.7), abs=1e-4)


def test_at_grid_points_the_share_is_exact():
    for gap in (25, 250, 1000):
        assert MODEL.share_at(MODEL.mu(gap)) == pytest.approx(phi(gap / 565.7), abs=1e-11)


def test_equal_ratings_give_even_chances_everywhere():
    assert MODEL.win_chance(0) == pytest.approx(0.5, abs=1e-12)
    for fmt in (MatchFormat(1), MatchFormat(2), MatchFormat(3, extra_margin=50, max_extra_games=3)):
        assert match_chance(MODEL, fmt, (1850,), (1850,)) == pytest.approx(0.5, abs=1e-12)
    team = MatchFormat(2, boards=5)
    lineup = (2100.0, 1990.0, 1850.0, 1700.0, 1600.0)
    assert match_chance(MODEL, team, lineup, lineup) == pytest.approx(0.5, abs=1e-12)


def test_the_two_sides_chances_add_up_to_one():
    for fmt in (MatchFormat(1), MatchFormat(2), MatchFormat(1, extra_margin=1, max_extra_games=3)):
        a = match_chance(MODEL, fmt, (1990.0,), (1800.0,))
        b = match_chance(MODEL, fmt, (1800.0,), (1990.0,))
        assert a + b == pytest.approx(1.0, abs=1e-12)


def test_chances_grow_with_the_rating_gap():
    for fmt in (MatchFormat(1), MatchFormat(2), MatchFormat(2, boards=5)):
        chances = [
            match_chance(MODEL, fmt, (1850 + gap,) * fmt.boards, (1850.0,) * fmt.boards)
            for gap in range(-600, 601, 50)
        ]
        assert all(b > a for a, b in zip(chances, chances[1:], strict=False))
    games = [MODEL.win_chance(gap) for gap in range(-600, 601, 50)]
    assert all(b > a for a, b in zip(games, games[1:], strict=False))


def test_more_games_favour_the_stronger_side():
    one, two, three = (match_chance(MODEL, MatchFormat(n), (2000.0,), (1850.0,)) for n in (1, 2, 3))
    assert 0.5 < one < two < three


def _by_the_rules(rules: MatchRules, gap: float, games: int) -> float:
    """Side A's chance by enumerating every sequence of tile margins and asking the project's
    own match rules (tournaments.formats.match_state) who won: level counts half."""
    margins = MODEL.margins(MODEL.mu(gap))
    won = 0.0
    for sequence in product(margins, repeat=games):
        p = 1.0
        tps = []
        for margin, q in sequence:
            p *= q
            lead = MODEL.lead_tenths(margin)
            tps_a = Decimal(200 + lead) / 20
            tps.append((tps_a, Decimal(20) - tps_a))
        # Stop where the rules stop: after an extra game decided the match, nothing follows.
        for played in range(1, len(tps) + 1):
            state = match_state(tps[:played], rules)
            if state.games_needed == 0:
                break
        if state.games_needed:
            continue  # needs a game this enumeration does not play (counted in a longer one)
        won += p if state.winner == 0 else p / 2 if state.winner is None else 0.0
    return won


def test_a_two_game_match_agrees_with_the_match_rules():
    for gap in (0, 120, 400):
        expected = _by_the_rules(MatchRules(planned_games=2), gap, 2)
        assert match_chance(MODEL, MatchFormat(2), (gap,), (0.0,)) == pytest.approx(
            expected, abs=1e-9
        )


def test_an_extra_game_is_played_exactly_as_the_rules_play_it():
    # One planned game and one extra game while the lead is under 5 TPs (a win by up to 2
    # tiles: 13.3-6.7 and 13.9-6.1 leave leads of 6.6 and 7.8, so only a draw is close).
    rules = MatchRules(planned_games=1, extra_margin=Decimal(7), max_extra_games=1)
    fmt = MatchFormat(1, extra_margin=70, max_extra_games=1)
    for gap in (0, 150):
        expected = _by_the_rules(rules, gap, 1) + _extra_part(rules, gap)
        assert match_chance(MODEL, fmt, (gap,), (0.0,)) == pytest.approx(expected, abs=1e-9)


def _extra_part(rules: MatchRules, gap: float) -> float:
    """The sequences that needed the extra game: every pair of margins whose first leaves the
    lead under the margin."""
    margins = MODEL.margins(MODEL.mu(gap))
    won = 0.0
    for (m1, p1), (m2, p2) in product(margins, repeat=2):
        first = Decimal(200 + MODEL.lead_tenths(m1)) / 20
        if match_state([(first, 20 - first)], rules).games_needed == 0:
            continue
        second = Decimal(200 + MODEL.lead_tenths(m2)) / 20
        state = match_state([(first, 20 - first), (second, 20 - second)], rules)
        won += p1 * p2 * (1.0 if state.winner == 0 else 0.5 if state.winner is None else 0.0)
    return won


def test_games_played_count_as_played():
    fmt = MatchFormat(3)
    # 40 TPs ahead with one game left: the match is won whatever happens (20 × 1 < 40).
    won = MatchProgress(lead=400, games_left=(1,))
    assert match_chance(MODEL, fmt, (1500.0,), (2300.0,), won) == 1.0
    lost = MatchProgress(lead=-250, games_left=(1,))
    assert match_chance(MODEL, fmt, (2300.0,), (1500.0,), lost) == 0.0
    # A small lead makes the favourite's chance bigger than before the match.
    fresh = match_chance(MODEL, fmt, (1900.0,), (1850.0,))
    ahead = match_chance(MODEL, fmt, (1900.0,), (1850.0,), MatchProgress(60, (2,)))
    assert ahead > fresh
    # After every game, level: a ruling, counted as a coin flip.
    level = MatchProgress(lead=0, games_left=(0,))
    assert match_chance(MODEL, fmt, (2300.0,), (1500.0,), level) == 0.5


def test_the_normal_sum_agrees_with_the_exact_one_from_four_games():
    for gap in (0, 60, 200, 500):
        game = MODEL.distribution(gap)
        states = {0: 1.0}
        for _ in range(4):
            nxt: dict[int, float] = {}
            for lead, p in states.items():
                for step, q in game:
                    nxt[lead + step] = nxt.get(lead + step, 0.0) + p * q
            states = nxt
        exact = sum(p if lead > 0 else p / 2 if lead == 0 else 0 for lead, p in states.items())
        assert match_chance(MODEL, MatchFormat(4), (gap,), (0.0,)) == pytest.approx(exact, abs=0.01)


def test_a_pair_counts_as_its_partners_mean():
    assert pair_rating([2000.0, 1700.0]) == 1850.0
    fmt = MatchFormat(1)
    pair = pair_rating([2000.0, 1700.0])
    assert match_chance(MODEL, fmt, (pair,), (1850.0,)) == pytest.approx(0.5, abs=1e-12)


def test_a_team_match_sums_its_boards():
    fmt = MatchFormat(1, boards=2)
    # One strong board and one weak one cancel out: as level as two equal boards.
    assert match_chance(MODEL, fmt, (2100.0, 1600.0), (1600.0, 2100.0)) == pytest.approx(
        0.5, abs=1e-12
    )
    # Two boards, one game each: exactly the convolution of the two boards' games.
    a, b = MODEL.distribution(200), MODEL.distribution(-50)
    exact = sum(
        p * q * (1.0 if x + y > 0 else 0.5 if x + y == 0 else 0.0) for x, p in a for y, q in b
    )
    chance = match_chance(MODEL, fmt, (2050.0, 1800.0), (1850.0, 1850.0))
    assert chance == pytest.approx(exact, abs=1e-12)
    # A better player on any board makes the team likelier to win.
    better = match_chance(MODEL, fmt, (2050.0, 1900.0), (1850.0, 1850.0))
    assert better > chance


def test_the_chance_table_interpolates_within_a_tenth_of_a_point():
    for fmt in (MatchFormat(1), MatchFormat(2), MatchFormat(1, extra_margin=1, max_extra_games=3)):
        table = ChanceTable(GameModel(), fmt)
        for gap in (-613.0, -12.5, 0.0, 7.0, 138.0, 401.3, 999.0):
            direct = match_chance(GameModel(), fmt, (gap,), (0.0,))
            assert table.chance(gap) == pytest.approx(direct, abs=1e-3)


def test_a_sampled_match_wins_as_often_as_the_exact_chance_says():
    rng = random.Random(7)
    fmt = MatchFormat(2, extra_margin=50, max_extra_games=2)
    mus = [MODEL.mu(150)]
    runs = 20_000
    wins = 0.0
    for _ in range(runs):
        a, b = sample_match(rng, MODEL, fmt, mus)
        assert (a + b) % 200 == 0 and a >= 0 and b >= 0
        wins += 1.0 if a > b else 0.5 if a == b else 0.0
    exact = match_chance(MODEL, fmt, (150.0,), (0.0,))
    error = 4 * sqrt(exact * (1 - exact) / runs)
    assert abs(wins / runs - exact) < error


def test_a_sampled_match_stops_when_decided_early():
    rng = random.Random(3)
    fmt = MatchFormat(3)
    # 41 TPs ahead before the last game: decided, nothing more is played.
    assert sample_match(rng, MODEL, fmt, [0.0], MatchProgress(410, (1,))) == (0, 0)
    # Not yet decided (exactly 20 ahead): the last game is played.
    a, b = sample_match(rng, MODEL, fmt, [0.0], MatchProgress(200, (1,)))
    assert a + b == 200


def test_an_outcome_table_is_the_match_as_the_rules_play_it():
    fmt = MatchFormat(3, extra_margin=50, max_extra_games=2)
    table = OutcomeTable(MODEL, fmt)
    outcomes = table.outcomes(175.0)
    assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    won = sum(p if a > b else p / 2 if a == b else 0 for (a, b), p in outcomes.items())
    assert won == pytest.approx(match_chance(MODEL, fmt, (175.0,), (0.0,)), abs=0.01)
    games = {(a + b) // 200 for a, b in outcomes}
    assert games == {2, 3, 4, 5}  # early finish after two, extra games up to five


def test_params_are_checked():
    with pytest.raises(ValueError):
        ForecastParams(spread=0)
    with pytest.raises(ValueError):
        MatchFormat(0)
    with pytest.raises(ValueError):
        MatchFormat(1, max_extra_games=2)


def test_a_rating_on_few_games_forecasts_less_boldly():
    assert MODEL.rating_error(0) == MODEL.rating_error(1) == pytest.approx(MODEL.game_error)
    assert MODEL.rating_error(4) == pytest.approx(MODEL.game_error / 2)
    # The Elo weighs at most 60 games: the error stops shrinking there.
    assert MODEL.rating_error(60) == MODEL.rating_error(600)
    assert MODEL.effective_gap(0.0, 300.0, 300.0) == 0.0
    bold, damped = MODEL.effective_gap(300.0), MODEL.effective_gap(300.0, 150.0, 150.0)
    assert bold == 300.0 and 0 < damped < bold
    assert MODEL.effective_gap(-300.0, 150.0, 150.0) == -damped


def test_the_damped_gap_is_the_elos_share_averaged_over_the_ratings_errors():
    # Average Φ((gap + x) / scale) over x ~ N(0, σ²) by quadrature: the damped gap's share.
    gap, sigma, scale = 250.0, 220.0, 565.7
    steps = 4001
    total = weight = 0.0
    for k in range(steps):
        z = -8 + 16 * k / (steps - 1)
        w = pow(2.718281828459045, -z * z / 2)
        total += w * phi((gap + sigma * z) / scale)
        weight += w
    damped = MODEL.effective_gap(gap, sigma, 0.0)
    assert phi(damped / scale) == pytest.approx(total / weight, abs=1e-9)


def test_the_error_of_one_game_comes_from_the_spread_of_its_tp_share():
    game = MODEL.distribution(0)
    sd = sqrt(sum(p * (lead / 400) ** 2 for lead, p in game))
    assert 0.25 < sd < 0.35  # a game between equals: TPs mostly 13–17 for the winner
    assert MODEL.game_error == pytest.approx(565.7 * sd * sqrt(2 * 3.141592653589793))
