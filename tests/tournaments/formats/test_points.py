"""Tournament points: the scheme table, real results, and time penalties."""

import csv
import math
import os
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from tournaments.formats import (
    CURRENT_TP_SCHEME,
    TP_SCHEMES,
    FormatError,
    apply_time_penalties,
    game_tps,
    time_penalty_tps,
    tp_scheme,
    tps_for_margin,
)

# The shared spec sits beside the repository (../shared/spec), in CI as on a developer machine.
_DEFAULT_SPEC_DIR = Path(__file__).resolve().parents[3].parent / "shared" / "spec"
SPEC = Path(os.environ.get("TANTRIX_SPEC_DIR", _DEFAULT_SPEC_DIR)) / "tournament-points.csv"


def D(value: str) -> Decimal:
    return Decimal(value)


@pytest.mark.skipif(not SPEC.exists(), reason=f"spec table not present at {SPEC}")
def test_scheme_1_agrees_with_the_spec_csv():
    with SPEC.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows, "the spec table is empty"
    for row in rows:
        margin = int(row["margin"])
        assert tps_for_margin(margin, 1) == (D(row["winner_tp"]), D(row["loser_tp"])), margin
    # The package table ends exactly where the spec's does: beyond it the winner takes all.
    assert tp_scheme(1).all_tps_margin == max(int(r["margin"]) for r in rows)


def test_scheme_1_agrees_with_the_formula():
    for margin in range(1, 101):
        exact = min(20.0, 12 + 4 / 3 * math.sqrt(margin))
        expected = Decimal(repr(exact)).quantize(D("0.1"), rounding=ROUND_HALF_UP)
        assert tps_for_margin(margin)[0] == expected, margin


def test_shares_always_sum_to_20_with_one_decimal():
    for margin in range(0, 60):
        winner, loser = tps_for_margin(margin)
        assert winner + loser == D("20.0")
        assert winner.as_tuple().exponent == -1 and loser.as_tuple().exponent == -1


def test_draw_and_large_margins():
    assert game_tps(7, 7) == (D("10.0"), D("10.0"))
    assert game_tps(50, 2) == (D("20.0"), D("0.0"))
    assert game_tps(4, 12) == (D("4.2"), D("15.8"))


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([(12, 10), (9, 6)], ("28.2", "11.8")),  # wins by 2 and 3
        ([(20, 12), (4, 9)], ("20.8", "19.2")),  # a win by 8 and a loss by 5
        ([(11, 8), (15, 12)], ("28.6", "11.4")),  # two wins by 3
    ],
)
def test_real_two_game_results(games, expected):
    total_a = total_b = D("0")
    for score_a, score_b in games:
        a, b = game_tps(score_a, score_b)
        total_a, total_b = total_a + a, total_b + b
    assert (total_a, total_b) == (D(expected[0]), D(expected[1]))


def test_scheme_registry():
    assert CURRENT_TP_SCHEME in TP_SCHEMES
    assert tp_scheme(1).version == 1
    with pytest.raises(FormatError, match="unknown tournament-points scheme 7"):
        game_tps(3, 1, scheme=7)


def test_negative_scores_are_refused():
    with pytest.raises(FormatError, match="cannot be negative"):
        game_tps(-1, 4)


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [(0, 0), (899, 0), (900, 1), (959, 1), (960, 2), (1019, 2), (1020, 3), (1500, 11)],
)
def test_time_penalty_singles(seconds, expected):
    assert time_penalty_tps(seconds, claimed=True) == expected


def test_time_penalty_pairs_limit_is_12_minutes():
    assert time_penalty_tps(12 * 60 - 1, 12 * 60, claimed=True) == 0
    assert time_penalty_tps(12 * 60, 12 * 60, claimed=True) == 1
    assert time_penalty_tps(14 * 60, 12 * 60, claimed=True) == 3


def test_unclaimed_penalty_costs_nothing():
    assert time_penalty_tps(1500, claimed=False) == 0


def test_apply_time_penalties_moves_tps_and_keeps_the_sum():
    assert apply_time_penalties(D("15.8"), D("4.2"), 2, 0) == (D("13.8"), D("6.2"))
    assert apply_time_penalties(D("15.8"), D("4.2"), 1, 3) == (D("17.8"), D("2.2"))
    # Clamped: the loser cannot go below 0, nor the winner above 20.
    assert apply_time_penalties(D("18.0"), D("2.0"), 0, 5) == (D("20.0"), D("0.0"))
    assert apply_time_penalties(D("10.0"), D("10.0"), 11, 0) == (D("0.0"), D("20.0"))


def test_apply_time_penalties_rejects_a_bad_game():
    with pytest.raises(ValueError, match="shares 20"):
        apply_time_penalties(D("15.0"), D("4.0"), 1, 0)
