"""The tournament Elo against hand-computed values: Φ, Φ⁻¹, expected shares, performances,
the games-weighted update, pool anchoring and the provisional flag."""

from math import fsum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.systems import (
    ELO_PARAMS,
    EloParams,
    EloRating,
    anchor_pool,
    anchor_step,
    elo_tournament,
    elo_update,
    expected_share,
    is_provisional,
    normal_cdf,
    normal_ppf,
    performance,
)


@pytest.mark.parametrize(
    ("share", "over_opposition"),
    [(0.51, 14), (0.52, 28), (0.53, 43), (0.54, 57), (0.55, 71)],
)
def test_performance_over_opposition_average(share: float, over_opposition: int) -> None:
    # 565.7 · Φ⁻¹(share): Φ⁻¹(0.51) = 0.0250689 → 14.18; Φ⁻¹(0.52) = 0.0501536 → 28.37;
    # Φ⁻¹(0.53) = 0.0752699 → 42.58; Φ⁻¹(0.54) = 0.1004337 → 56.82;
    # Φ⁻¹(0.55) = 0.1256613 → 71.09
    assert round(performance(1850.0, share) - 1850.0) == over_opposition


def test_performance_is_symmetric_and_zero_at_half() -> None:
    assert performance(1900.0, 0.5) == pytest.approx(1900.0)
    assert performance(1900.0, 0.45) - 1900 == pytest.approx(1900 - performance(1900.0, 0.55))


def test_performance_is_capped_at_800() -> None:
    assert performance(1800.0, 1.0) == 2600.0
    assert performance(1800.0, 0.0) == 1000.0
    # Φ⁻¹(0.9999) = 3.719 → 2104 over, capped
    assert performance(1800.0, 0.9999) == 2600.0


@pytest.mark.parametrize(
    ("difference", "share"),
    [
        (0.0, 0.5),
        (565.7, 0.8413),  # Φ(1)
        (-565.7, 0.1587),  # Φ(−1)
        (282.85, 0.6915),  # Φ(0.5)
        (1131.4, 0.9772),  # Φ(2)
        (200.0, 0.6382),  # Φ(0.35355)
    ],
)
def test_expected_share(difference: float, share: float) -> None:
    assert expected_share(1850.0 + difference, 1850.0) == pytest.approx(share, abs=5e-5)


def test_normal_ppf_inverts_normal_cdf() -> None:
    for p in [1e-12, 1e-6, 0.001, 0.02425, 0.1, 0.3, 0.5, 0.7, 0.97575, 0.999, 1 - 1e-9]:
        assert normal_cdf(normal_ppf(p)) == pytest.approx(p, rel=1e-12)
    assert normal_ppf(0.5) == 0.0
    assert normal_ppf(0.8413447460685429) == pytest.approx(1.0, abs=1e-12)


@given(st.floats(min_value=1e-300, max_value=1 - 1e-16, exclude_max=True))
def test_normal_ppf_round_trip(p: float) -> None:
    assert normal_cdf(normal_ppf(p)) == pytest.approx(p, rel=1e-9)


def test_normal_ppf_rejects_0_and_1() -> None:
    with pytest.raises(ValueError):
        normal_ppf(0.0)
    with pytest.raises(ValueError):
        normal_ppf(1.0)


def test_established_player_update() -> None:
    # 2000 on 100 games plays 10 games against 1900s and takes 55 % of the TPs.
    # performance = 1900 + 565.7 · Φ⁻¹(0.55) = 1900 + 71.0866239 = 1971.0866239
    # weight of the old rating = min(100, 60) = 60
    # new = (60 · 2000 + 10 · 1971.0866239) / 70 = 139710.866239 / 70 = 1995.8695177
    update = elo_update(2000.0, 100, [1900.0] * 10, 0.55)
    assert update.performance == pytest.approx(1971.0866239, abs=1e-6)
    assert update.rating == pytest.approx(1995.8695177, abs=1e-6)
    assert update.delta == pytest.approx(-4.1304823, abs=1e-6)
    assert update.games == 110
    assert update.provisional is False
    # Expected Φ(100/565.7) = Φ(0.176772) = 0.570156: a 55 % share was below par, hence the drop.
    assert update.expected_share == pytest.approx(0.570156, abs=1e-6)


def test_newcomer_takes_the_first_performance() -> None:
    # No games: the old rating weighs 0, so the new rating is the performance.
    # opposition average (1800 + 1900)/2 = 1850, share 0.5 → 1850
    update = elo_update(0.0, 0, [1800.0, 1900.0], 0.5)
    assert update.rating == pytest.approx(1850.0)
    assert update.games == 2
    assert update.provisional is True
    assert update.delta == 0.0


def test_provisional_below_36_games() -> None:
    assert is_provisional(0)
    assert is_provisional(35)
    assert not is_provisional(36)
    assert elo_update(1850.0, 30, [1850.0] * 5, 0.5).provisional is True
    assert elo_update(1850.0, 30, [1850.0] * 6, 0.5).provisional is False


def test_no_games_no_change() -> None:
    update = elo_update(1900.0, 40, [], 0.0)
    assert (update.rating, update.games, update.delta) == (1900.0, 40, 0.0)


def test_tournament() -> None:
    # A (2000, 50 games), B (1800, 40 games), C newcomer (meets others at 1850).
    # A–B 15–5, A–C 10–10, B–C 13.3–6.7.
    # A: opposition (1800 + 1850)/2 = 1825, share 25/40 = 0.625, Φ⁻¹(0.625) = 0.3186394
    #    performance 1825 + 565.7 · 0.3186394 = 2005.2542882
    #    new (50 · 2000 + 2 · 2005.2542882) / 52 = 2000.2020880
    # B: opposition (2000 + 1850)/2 = 1925, share 18.3/40 = 0.4575, Φ⁻¹ = −0.1067340
    #    performance 1925 − 60.3794299 = 1864.6205701
    #    new (40 · 1800 + 2 · 1864.6205701) / 42 = 1803.0771700
    # C: opposition (2000 + 1800)/2 = 1900, share 16.7/40 = 0.4175, Φ⁻¹ = −0.2082933
    #    performance 1900 − 117.8315 = 1782.1685072, and that is C's rating (no past games)
    result = elo_tournament(
        {"A": EloRating(2000.0, 50), "B": EloRating(1800.0, 40)},
        [("A", "B", 15.0, 5.0), ("A", "C", 10.0, 10.0), ("B", "C", 13.3, 6.7)],
    )
    assert result["A"].rating == pytest.approx(2000.2020880, abs=1e-6)
    assert result["B"].rating == pytest.approx(1803.0771700, abs=1e-6)
    assert result["C"].rating == pytest.approx(1782.1685072, abs=1e-6)
    assert [result[p].games for p in "ABC"] == [52, 42, 2]
    assert [result[p].provisional for p in "ABC"] == [False, False, True]


def test_tournament_order_of_games_does_not_matter() -> None:
    standings = {"A": EloRating(2000.0, 50), "B": EloRating(1800.0, 40)}
    games = [("A", "B", 15.0, 5.0), ("A", "C", 10.0, 10.0), ("B", "C", 13.3, 6.7)]
    assert elo_tournament(standings, games) == elo_tournament(standings, games[::-1])


def test_anchor_pool_by_hand() -> None:
    # weighted mean (1900 · 100 + 1700 · 50 + 2000 · 0) / 150 = 275000 / 150 = 1833.3333
    # shift +16.6667 for everyone, the unplayed rating too
    pool = anchor_pool(
        {"a": EloRating(1900.0, 100), "b": EloRating(1700.0, 50), "c": EloRating(2000.0, 0)}
    )
    assert pool["a"].rating == pytest.approx(1916.6666667)
    assert pool["b"].rating == pytest.approx(1716.6666667)
    assert pool["c"].rating == pytest.approx(2016.6666667)
    assert [pool[p].games for p in "abc"] == [100, 50, 0]


def weighted_mean(pool: dict[int, EloRating]) -> float:
    return fsum(s.rating * s.games for s in pool.values()) / sum(s.games for s in pool.values())


@given(
    st.dictionaries(
        st.integers(0, 10_000),
        st.builds(
            EloRating,
            rating=st.floats(min_value=1000.0, max_value=2800.0),
            games=st.integers(min_value=0, max_value=3000),
        ),
        min_size=1,
        max_size=50,
    ).filter(lambda pool: sum(s.games for s in pool.values()) > 0)
)
def test_anchored_pool_has_games_weighted_mean_1850(pool: dict[int, EloRating]) -> None:
    anchored = anchor_pool(pool)
    # exact up to float rounding of the sums
    assert weighted_mean(anchored) == pytest.approx(1850.0, abs=1e-9)
    # a common shift: every gap, hence every expected share, is kept
    first = next(iter(pool))
    for p in pool:
        gap = pool[p].rating - pool[first].rating
        assert anchored[p].rating - anchored[first].rating == pytest.approx(gap, abs=1e-9)


def test_anchor_of_an_unplayed_pool_changes_nothing() -> None:
    pool = {"a": EloRating(1900.0, 0)}
    assert anchor_pool(pool) == pool


def test_a_drift_within_the_tolerance_is_left_alone() -> None:
    # Games-weighted mean 1850.04: 0.04 below the default tolerance of 0.05, above 0.01.
    pool = [EloRating(1850.08, 10), EloRating(1850.0, 10)]
    assert anchor_step(pool) == 0.0
    assert anchor_step(pool, EloParams(anchor_tolerance=0.01)) == pytest.approx(-0.04)
    assert anchor_step([EloRating(1900.0, 0)]) == 0.0  # nobody has played
    with pytest.raises(ValueError, match="anchor_tolerance"):
        EloParams(anchor_tolerance=-1.0)


def test_anchor_is_a_parameter() -> None:
    params = EloParams(anchor=1500.0)
    pool = anchor_pool({"a": EloRating(1900.0, 10), "b": EloRating(1700.0, 10)}, params)
    assert weighted_mean(pool) == pytest.approx(1500.0)
    assert ELO_PARAMS.anchor == 1850.0
