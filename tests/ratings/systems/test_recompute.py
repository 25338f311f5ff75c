"""The batch recompute equals the per-game functions applied one by one, bit for bit."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.systems import (
    LOBBY_PARAMS,
    MASTER_PARAMS,
    MONTHLY_PARAMS,
    LobbyParams,
    lobby_game,
    lobby_update,
    recompute_lobby,
)

players = st.integers(min_value=0, max_value=5)
won_games = st.tuples(players, players, st.integers(1, 50), st.booleans()).filter(
    lambda g: g[0] != g[1]
)
scored_games = st.tuples(
    players, players, st.integers(0, 45), st.integers(0, 45), st.booleans()
).filter(lambda g: g[0] != g[1])
params_choices = st.sampled_from(
    [LOBBY_PARAMS, MONTHLY_PARAMS, MASTER_PARAMS, LobbyParams(k=60.0), LobbyParams(k=400.0)]
)


def one_by_one(games, params, initial=None):
    table = dict(initial or {})
    counts: dict[int, int] = {}
    steps = []
    for game in games:
        if len(game) == 4:
            a, b, margin, robot = game
            before = (table.get(a, params.start), table.get(b, params.start))
            after = lobby_update(*before, margin, robot=robot, params=params)
        else:
            a, b, score_a, score_b, robot = game
            before = (table.get(a, params.start), table.get(b, params.start))
            after = lobby_game(*before, score_a, score_b, robot=robot, params=params)
        table[a], table[b] = after
        counts[a] = counts.get(a, 0) + 1
        counts[b] = counts.get(b, 0) + 1
        steps.append((*before, *after))
    return table, counts, steps


@given(
    games=st.lists(st.one_of(won_games, scored_games), max_size=80),
    params=params_choices,
    initial=st.dictionaries(players, st.floats(0.0, 1000.0), max_size=3),
)
def test_recompute_equals_per_game_application(games, params, initial) -> None:
    table, counts, steps = one_by_one(games, params, initial)
    result = recompute_lobby(games, params=params, initial=initial, history=True)
    # Exact equality on purpose: the batch loop inlines the same arithmetic.
    assert result.ratings == table
    assert result.games == counts
    assert result.steps == steps


def test_recompute_by_hand() -> None:
    # 1 beats 2 by 9 from 500 each: 503.9585237, 496.25 (see test_lobby); then 2 beats 3 by 9
    # scored as (3, 2, 0, 9): 3 is 500, 2 is 496.25.
    result = recompute_lobby([(1, 2, 9, False), (3, 2, 0, 9, False)], history=True)
    assert result.ratings[1] == pytest.approx(503.958523732318683)
    assert result.games == {1: 1, 2: 2, 3: 1}
    assert result.steps is not None
    # the second step is told in the tuple's order: player 3 first
    b3, b2, a3, a2 = result.steps[1]
    assert (b3, b2) == (500.0, 496.25)
    assert a3 < 500.0 < a2


def test_history_is_optional() -> None:
    assert recompute_lobby([(1, 2, 9, False)]).steps is None


def test_recompute_rejects_a_zero_margin_and_odd_tuples() -> None:
    with pytest.raises(ValueError):
        recompute_lobby([(1, 2, 0, False)])
    with pytest.raises(ValueError):
        recompute_lobby([(1, 2, False)])  # type: ignore[list-item]


def test_recompute_of_nothing_is_empty() -> None:
    result = recompute_lobby([])
    assert (result.ratings, result.games) == ({}, {})
