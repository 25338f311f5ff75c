"""Brier score, log loss, the baselines and the calibration table, by hand on four games."""

from __future__ import annotations

from math import log

import pytest

from tournaments.formats.forecast import Scored, evaluate
from tournaments.formats.forecast.scoring import Gain

# Four games: (side A's chance, A's result, the rating gap).
GAMES = [
    Scored(0.8, 1.0, 200.0),  # the favourite won
    Scored(0.6, 0.0, 100.0),  # the favourite lost
    Scored(0.3, 0.0, -150.0),  # the favourite (B) won
    Scored(0.5, 0.5, 0.0),  # equal ratings, a draw
]


def test_brier_and_log_loss_by_hand():
    result = evaluate(GAMES)
    # (0.2² + 0.6² + 0.3² + 0²) / 4 = (0.04 + 0.36 + 0.09 + 0) / 4
    assert result.forecast.brier == pytest.approx(0.1225)
    # −[ln 0.8 + ln 0.4 + ln 0.7 + ½ ln 0.5 + ½ ln 0.5] / 4
    expected = -(log(0.8) + log(0.4) + log(0.7) + log(0.5)) / 4
    assert result.forecast.log_loss == pytest.approx(expected)
    # The coin flip: ¼ for every decided game, 0 for the draw; ln 2 always.
    assert result.coin.brier == pytest.approx(0.1875)
    assert result.coin.log_loss == pytest.approx(log(2))


def test_the_higher_rated_baseline_uses_its_hit_rate():
    result = evaluate(GAMES)
    # Ratings differed in three games; the higher rated won two: h = 2/3.
    assert result.decisive == 3
    assert result.hit_rate == pytest.approx(2 / 3)
    h = 2 / 3
    brier = ((h - 1) ** 2 + h**2 + (1 - h - 0) ** 2 + 0) / 4
    assert result.favourite.brier == pytest.approx(brier)
    loss = -(log(h) + log(1 - h) + log(h) + log(0.5)) / 4
    assert result.favourite.log_loss == pytest.approx(loss)


def test_the_calibration_table_folds_to_the_favoured_side():
    table = evaluate(GAMES, bins=5).calibration
    assert [round(b.low, 2) for b in table] == [0.5, 0.6, 0.7, 0.8, 0.9]
    counts = [b.count for b in table]
    # 0.5 → first bin; 0.6 → second; 0.3 (B favoured at 0.7) → third; 0.8 → fourth.
    assert counts == [1, 1, 1, 1, 0]
    assert table[1].mean_forecast == pytest.approx(0.6) and table[1].observed == 0.0
    assert table[2].mean_forecast == pytest.approx(0.7) and table[2].observed == 1.0


def test_better_than_the_coin_needs_more_than_luck():
    # Four games prove nothing, however good they look.
    assert not evaluate(GAMES).better_than_coin
    confident = [Scored(0.7, 1.0, 100.0)] * 70 + [Scored(0.7, 0.0, 100.0)] * 30
    assert evaluate(confident).better_than_coin
    # The same forecasts when the favourite wins only half the time: worse than a coin.
    coin = [Scored(0.7, 1.0, 100.0)] * 50 + [Scored(0.7, 0.0, 100.0)] * 50
    assert not evaluate(coin).better_than_coin
    assert evaluate([]).count == 0 and not evaluate([]).better_than_coin


def test_a_gain_is_significant_beyond_two_standard_errors():
    assert Gain(0.03, 0.01).significant
    assert not Gain(0.03, 0.02).significant
