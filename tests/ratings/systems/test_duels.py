"""One game's moves for the Django side: the Duel dataclass, its recompute tuple, and the moves
agreeing with the recompute bit for bit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.systems import (
    LOBBY_PARAMS,
    Duel,
    doubles_move,
    duel_move,
    duel_tuple,
    recompute_lobby,
)


def test_a_win_is_by_the_margin_and_at_least_one_tile():
    assert Duel.of(1, 19, 2, 10, 0, False) == Duel(1, 2, 9, False, draw=False)
    assert Duel.of(1, 19, 2, 10, 1, True) == Duel(2, 1, 1, True, draw=False)  # won on time
    assert Duel.of(1, 19, 2, 10, 1, False).winner == 2


def test_a_game_without_a_winner_is_a_draw():
    duel = Duel.of(1, 12, 2, 12, None, False)
    assert duel.draw and duel.winner is None and duel.loser is None
    assert duel.game == (1, 2, 0, 0, False)


@given(
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from([0, 1, None]),
    st.booleans(),
)
def test_the_recompute_tuple_is_the_duel_s_game(s0, s1, winner_seat, robot):
    assert (
        duel_tuple(1, s0, 2, s1, winner_seat, robot)
        == Duel.of(1, s0, 2, s1, winner_seat, robot).game
    )


@pytest.mark.parametrize("winner_seat", [0, 1, None])
def test_a_move_equals_the_recompute(winner_seat):
    duel = Duel.of(1, 20, 2, 13, winner_seat, False)
    moved = duel_move(duel, {1: 640.0, 2: 480.0}.__getitem__, LOBBY_PARAMS)
    replay = recompute_lobby([duel.game], initial={1: 640.0, 2: 480.0})
    assert moved == replay.ratings


def test_500_beats_500_by_9_by_hand():
    moved = duel_move(Duel.of(1, 19, 2, 10, 0, False), lambda pid: 500.0, LOBBY_PARAMS)
    assert moved[1] == pytest.approx(503.958524, abs=1e-6)  # 500 + 2·√9·0.5^0.6
    assert moved[2] == 496.25  # 500 − 2·√9·1.25·0.5


def test_doubles_partners_share_the_team_result():
    # (600, 400) beat (700, 300) by 4 (docs/ratings.md §3): averages 500 v 500, base 2·√4 = 4.
    ratings = {1: 600.0, 2: 700.0, 3: 400.0, 4: 300.0}
    moved = doubles_move([(1, 20), (2, 16), (3, 12), (4, 15)], 0, False, ratings.get, LOBBY_PARAMS)
    assert moved[1] == pytest.approx(602.31, abs=0.01)
    assert moved[3] == pytest.approx(402.94, abs=0.01)
    assert moved[2] == pytest.approx(696.5, abs=1e-9)
    assert moved[4] == pytest.approx(298.5, abs=1e-9)
