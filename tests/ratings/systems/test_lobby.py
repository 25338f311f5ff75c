"""The lobby ranking against hand-computed values, and its invariants.

Defaults used by the hand computations: K = 2, margin cap 36, ratio cap 4,
gain_drag(r) = (1 − r/1000)^0.6, loss_drag(r) = 1.25 · r/1000, robot weight 0.5, draws count
as half a win and half a loss by one tile.
"""

import random
from math import sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.systems import (
    LOBBY_PARAMS,
    LobbyParams,
    gain_drag,
    lobby_draw,
    lobby_game,
    lobby_update,
    loss_drag,
    recompute_lobby,
)

ratings = st.floats(min_value=0.0, max_value=1000.0, allow_nan=False)
margins = st.integers(min_value=1, max_value=60)


def undragged(winner: float, loser: float, margin: int) -> float:
    """K · √(margin · loser/winner), with the caps, before drag."""
    ratio = min(4.0, max(0.25, loser / winner))
    return 2.0 * sqrt(min(margin, 36) * ratio)


def test_equals_at_500_nine_tiles() -> None:
    # base = 2 · √(9 · 500/500) = 6
    # gain = 6 · (1 − 0.5)^0.6 = 6 · 0.6597539553864471 = 3.958523732318683
    # loss = 6 · 1.25 · 0.5 = 3.75
    assert lobby_update(500, 500, 9) == pytest.approx((503.958523732318683, 496.25), abs=1e-12)


def test_underdog_win_gains_more_with_the_ratio() -> None:
    # 400 beats 800 by 4: ratio 800/400 = 2, base = 2 · √(4 · 2) = 5.656854249492381
    # gain = 5.656854 · 0.6^0.6 = 5.656854 · 0.7360219228178333 = 4.163568741811...
    # loss = 5.656854 · 1.25 · 0.8 = 5.656854 (loss_drag(800) = 1 exactly)
    assert lobby_update(400, 800, 4) == pytest.approx(
        (404.1635687418116, 794.3431457505076), abs=1e-9
    )


def test_favourite_win_gains_less_than_underdog_win() -> None:
    gain_fav = lobby_update(800, 400, 4)[0] - 800
    gain_dog = lobby_update(400, 800, 4)[0] - 400
    assert gain_fav < gain_dog


def test_gain_grows_with_square_root_of_margin() -> None:
    # Below the cap the undragged exchange is K · √margin: 16 tiles give twice 4 tiles.
    g4 = lobby_update(500, 500, 4)[0] - 500
    g16 = lobby_update(500, 500, 16)[0] - 500
    assert g16 == pytest.approx(2 * g4)


def test_margin_is_capped_at_36() -> None:
    assert lobby_update(500, 500, 50) == lobby_update(500, 500, 36)


def test_ratio_is_capped_at_4() -> None:
    # 100 beats 900 by 1: ratio 9 is capped at 4, base = 2 · √(1 · 4) = 4
    # gain = 4 · 0.9^0.6 = 4 · 0.9387403933595694 = 3.754961573438278
    # loss = 4 · 1.25 · 0.9 = 4.5
    assert lobby_update(100, 900, 1) == pytest.approx((103.754961573438278, 895.5), abs=1e-9)
    # Any loser rated above 4 × 100 gives the winner the same capped gain.
    assert lobby_update(100, 950, 1)[0] == lobby_update(100, 900, 1)[0]


def test_robot_games_count_half() -> None:
    # base = 0.5 · 2 · √9 = 3: gain 3 · 0.659754 = 1.979262, loss 3 · 0.625 = 1.875
    w, lo = lobby_update(500, 500, 9, robot=True)
    assert (w, lo) == pytest.approx((501.9792618661593, 498.125), abs=1e-12)
    full_w, full_l = lobby_update(500, 500, 9)
    assert w - 500 == pytest.approx((full_w - 500) / 2)
    assert 500 - lo == pytest.approx((500 - full_l) / 2)


@given(own=st.floats(min_value=750.0, max_value=1000.0), opp=ratings, margin=margins)
def test_gains_from_750_up_are_below_half_the_undragged_gain(
    own: float, opp: float, margin: int
) -> None:
    assert gain_drag(own) < 0.5
    gain = lobby_update(own, opp, margin)[0] - own
    assert gain < 0.5 * undragged(own, max(opp, 1.0), margin)


def test_gain_drag_values() -> None:
    # (1 − 0.75)^0.6 = 0.25^0.6 = 0.4352752816480621; 0 at the ceiling, 1 at the floor
    assert gain_drag(750) == pytest.approx(0.4352752816480621)
    assert gain_drag(1000) == 0.0
    assert gain_drag(0) == 1.0


@pytest.mark.parametrize("own", [850.0, 900.0, 950.0, 990.0, 1000.0])
def test_losses_near_1000_are_larger_than_the_undragged_loss(own: float) -> None:
    # loss_drag = 1.25 · r/1000 > 1 from 800 up: 950 → 1.1875, 1000 → 1.25
    assert loss_drag(own) > 1.0
    loss = own - lobby_update(600, own, 9)[1]
    assert loss > undragged(600, own, 9)


def test_loss_drag_values() -> None:
    assert loss_drag(950) == pytest.approx(1.1875)
    assert loss_drag(1000) == 1.25
    assert loss_drag(0) == 0.0


def test_the_nearer_1000_the_smaller_the_gain_and_the_bigger_the_loss() -> None:
    levels = [0, 200, 500, 750, 900, 950, 1000]
    gains = [gain_drag(r) for r in levels]
    losses = [loss_drag(r) for r in levels]
    assert gains == sorted(gains, reverse=True)
    assert losses == sorted(losses)


def test_1000_gains_nothing_and_0_loses_nothing() -> None:
    assert lobby_update(1000, 1000, 20)[0] == 1000
    assert lobby_update(0, 0, 20)[1] == 0


def test_centre_of_the_scale_is_neutral_between_equals() -> None:
    # gain_drag and loss_drag cross near 517: below it a win between equals gains more than the
    # loss costs, above it less, so the pool's average is pulled there, not up or down forever.
    assert gain_drag(516) > loss_drag(516)
    assert gain_drag(518) < loss_drag(518)


def test_draw_between_equals_at_500() -> None:
    # each: half a one-tile win (2 · 1 · 0.659754) minus half a one-tile loss (2 · 1 · 0.625)
    # = 0.659754 − 0.625 = 0.034754
    assert lobby_draw(500, 500) == pytest.approx((500.0347539553864, 500.0347539553864), abs=1e-12)


def test_draw_moves_ratings_toward_each_other() -> None:
    # 300 v 700, a one-tile margin:
    # 300: ½ (2·√(7/3)·0.7^0.6 − 2·√(3/7)·0.375) = ½ (2.4664778 − 0.4909903) = +0.9877438
    # 700: ½ (2·√(3/7)·0.3^0.6 − 2·√(7/3)·0.875) = ½ (0.6357910 − 2.6731692) = −1.0186891
    a, b = lobby_draw(300, 700)
    assert a == pytest.approx(300.9877438, abs=1e-6)
    assert b == pytest.approx(698.9813109, abs=1e-6)


def test_draws_can_be_switched_off() -> None:
    assert lobby_draw(300, 700, params=LobbyParams(draw_margin=0)) == (300, 700)


def test_game_level_function_routes_by_scores() -> None:
    assert lobby_game(400, 800, 20, 16) == lobby_update(400, 800, 4)
    assert lobby_game(800, 400, 16, 20) == lobby_update(400, 800, 4)[::-1]
    assert lobby_game(300, 700, 12, 12) == lobby_draw(300, 700)
    assert lobby_game(500, 500, 9, 0, robot=True) == lobby_update(500, 500, 9, robot=True)


def test_a_won_game_needs_a_margin() -> None:
    with pytest.raises(ValueError):
        lobby_update(500, 500, 0)


def test_bad_parameters_fail_fast() -> None:
    with pytest.raises(ValueError):
        LobbyParams(start=1200)
    with pytest.raises(ValueError):
        LobbyParams(k=0)
    with pytest.raises(ValueError):
        LobbyParams(robot_weight=2)


@given(
    start=st.lists(ratings, min_size=4, max_size=4),
    games=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(0, 3),
            st.integers(0, 60),
            st.integers(0, 60),
            st.booleans(),
        ),
        max_size=60,
    ),
    k=st.sampled_from([2.0, 40.0, 400.0]),
    drag=st.booleans(),
)
def test_any_sequence_of_results_stays_within_0_and_1000(
    start: list[float], games: list[tuple[int, int, int, int, bool]], k: float, drag: bool
) -> None:
    # A huge K makes every game hit the bounds, so the clamps are exercised too.
    params = LobbyParams(k=k, drag=drag)
    table = list(start)
    for a, b, score_a, score_b, robot in games:
        if a == b:
            continue
        table[a], table[b] = lobby_game(
            table[a], table[b], score_a, score_b, robot=robot, params=params
        )
        assert 0.0 <= table[a] <= 1000.0
        assert 0.0 <= table[b] <= 1000.0


def test_defaults_are_the_lobby_defaults() -> None:
    assert LOBBY_PARAMS.start == 500
    assert LOBBY_PARAMS.ceiling == 1000


def test_over_many_games_the_pool_is_stable_and_ordered_by_strength() -> None:
    # 200 players with hidden strengths (log-normal odds), 100,000 games drawn by a seeded
    # random, winners drawn from the strengths (Bradley-Terry). The drag's centre must hold
    # the pool mean near 517, and the ranking must order the players by strength.
    rnd = random.Random(7)
    n = 200
    strength = [rnd.lognormvariate(0.0, 1.0) for _ in range(n)]
    games = []
    for _ in range(100_000):
        a = rnd.randrange(n)
        b = rnd.randrange(n - 1)
        b += b >= a
        margin = min(30, 1 + int(rnd.expovariate(1 / 7)))
        won = rnd.random() * (strength[a] + strength[b]) < strength[a]
        games.append((a, b, margin, False) if won else (b, a, margin, False))
    final = recompute_lobby(games).ratings
    assert 505 < sum(final.values()) / n < 535
    by_strength = sorted(range(n), key=lambda p: strength[p])
    by_rating = sorted(range(n), key=lambda p: final[p])
    rank = {p: i for i, p in enumerate(by_rating)}
    spearman = 1 - 6 * sum((i - rank[p]) ** 2 for i, p in enumerate(by_strength)) / (
        n * (n * n - 1)
    )
    assert spearman > 0.95
    assert max(final.values()) < 1000
