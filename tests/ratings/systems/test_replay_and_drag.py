"""Version 2's centred drag by hand, and the replay loop the live ratings and the recompute share
(pure: no Django)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from ratings.systems import (
    LOBBY_PARAMS,
    MONTHLY_PARAMS,
    Duel,
    gain_drag,
    lobby_update,
    loss_drag,
    recompute_lobby,
)
from ratings.systems.replay import ADJUSTMENT, GAME, Event, Standing, Step, replay

V2 = replace(LOBBY_PARAMS, gain_drag_exponent=1.1, drag_centre=500.0)
T0 = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC)


def test_version_2_loss_grows_towards_1000_and_is_never_below_undragged():
    assert [loss_drag(r, V2) for r in (0, 300, 500)] == [1.0, 1.0, 1.0]
    assert loss_drag(800, V2) == pytest.approx(1.15)  # 1 + 0.25·(0.3/0.5)
    assert loss_drag(1000, V2) == 1.25
    losses = [loss_drag(r, V2) for r in range(0, 1001, 25)]
    assert losses == sorted(losses) and min(losses) >= 1.0
    # Version 1 made losses smaller than undragged below 800 (the fault of issue 11).
    assert loss_drag(400, LOBBY_PARAMS) == pytest.approx(0.5)


def test_version_2_by_hand():
    # 900 beats 900 by 9 tiles: base = 2·√9 = 6.
    # gain_drag(900) = ((1 − 0.9)/(1 − 0.5))^1.1 = 0.2^1.1 = e^(1.1·ln 0.2) = 0.170268
    # loss_drag(900) = 1 + 0.25·(0.9 − 0.5)/0.5 = 1.2
    winner, loser = lobby_update(900.0, 900.0, 9, params=V2)
    assert winner == pytest.approx(900 + 6 * 0.170268, abs=1e-5)  # +1.0216
    assert loser == pytest.approx(900 - 6 * 1.2, abs=1e-12)  # −7.2
    # At the centre both drags are 1: 500 beats 500 by 9, +6 and −6 exactly.
    assert lobby_update(500.0, 500.0, 9, params=V2) == (506.0, 494.0)
    # From 750 up a win brings less than half the undragged gain: 0.5^1.1 = 0.4665.
    assert gain_drag(750, V2) == pytest.approx(0.4665, abs=1e-4)
    assert gain_drag(750, V2) < 0.5


def test_recompute_lobby_inlines_version_2_bit_for_bit():
    games = [(1, 2, 9, False), (2, 3, 30, True), (3, 1, 12, False), (1, 3, 4, False)]
    ratings = {1: 500.0, 2: 500.0, 3: 500.0}
    for w, lo, margin, robot in games:
        ratings[w], ratings[lo] = lobby_update(
            ratings[w], ratings[lo], margin, robot=robot, params=V2
        )
    assert recompute_lobby(games, params=V2).ratings == ratings  # equality, not closeness


def _duel(at_minutes: int, game_id: int, p: int, q: int, margin: int, stored=None) -> Event:
    return Event(
        key=(T0 + dt.timedelta(minutes=at_minutes), GAME, game_id),
        players=(p, q),
        duel=Duel(p, q, margin, False, draw=False),
        stored=stored,
    )


def test_replay_from_scratch_equals_recompute_lobby():
    events = [_duel(1, 1, 1, 2, 9), _duel(2, 2, 2, 3, 4), _duel(3, 3, 3, 1, 20)]
    known: dict[int, Standing] = {}
    out = list(replay(events, V2, known=known, trust_stored=False))
    fast = recompute_lobby([(1, 2, 9, False), (2, 3, 4, False), (3, 1, 20, False)], params=V2)
    assert {p: s.value for p, s in known.items()} == fast.ratings
    assert all(r.differs for r in out)  # nothing was stored: every step is new


def test_replay_keeps_stored_steps_that_no_moved_player_takes_part_in():
    first = _duel(1, 1, 1, 2, 9)
    known: dict[int, Standing] = {}
    stored = {}
    for replayed in replay([first, _duel(2, 2, 3, 4, 5)], V2, known=known, trust_stored=False):
        stored[replayed.event.key] = replayed.steps
    # A late game between 1 and 5, before game 2 (3 v 4): game 2 keeps its steps.
    late = _duel(0, 9, 1, 5, 3)
    again = [
        late,
        _duel(1, 1, 1, 2, 9, stored=stored[first.key]),
        _duel(2, 2, 3, 4, 5, stored=stored[(T0 + dt.timedelta(minutes=2), GAME, 2)]),
    ]
    out = list(replay(again, V2, known={}, trust_stored=True))
    assert out[0].differs and out[1].differs  # new, then recomputed (1 moved)
    assert out[2].steps is None  # not computed again: no moved player in it


def test_a_void_event_moves_nothing_and_an_adjustment_replays_its_delta():
    adjustment = Event(key=(T0 + dt.timedelta(minutes=5), ADJUSTMENT, 77), players=(1,), delta=5.0)
    void = _duel(1, 1, 1, 2, 9)
    void.void = True
    known: dict[int, Standing] = {}
    out = list(replay([void, adjustment], V2, known=known, trust_stored=False))
    assert out[0].steps == {1: Step(500.0, 500.0, 0, 0), 2: Step(500.0, 500.0, 0, 0)}
    assert known[1] == Standing(505.0, 0)


def test_monthly_replay_restarts_a_new_month_at_the_start():
    october = Event(
        key=(T0 - dt.timedelta(days=5), GAME, 1),
        players=(1, 2),
        period="2026-10",
        duel=Duel(1, 2, 9, False, draw=False),
    )
    november = Event(
        key=(T0, GAME, 2), players=(1, 2), period="2026-11", duel=Duel(2, 1, 4, False, draw=False)
    )
    known: dict[int, Standing] = {}
    out = list(
        replay([october, november], MONTHLY_PARAMS, known=known, monthly=True, trust_stored=False)
    )
    assert out[1].steps[2].before == 700.0 and out[1].steps[2].games_before == 0
