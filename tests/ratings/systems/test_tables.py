"""The tables that share the lobby maths: monthly, doubles and Master."""

from datetime import date, datetime

import pytest

from ratings.systems import (
    DOUBLES_PARAMS,
    MASTER_PARAMS,
    MONTHLY_PARAMS,
    doubles_draw,
    doubles_game,
    doubles_update,
    lobby_draw,
    lobby_update,
    monthly_rating,
    period_key,
)

# --- monthly -------------------------------------------------------------------------------


def test_period_key() -> None:
    assert period_key(date(2026, 11, 30)) == "2026-11"
    assert period_key(date(2026, 12, 1)) == "2026-12"
    assert period_key(datetime(2027, 1, 1, 0, 5)) == "2027-01"


def test_monthly_table_starts_at_700() -> None:
    assert MONTHLY_PARAMS.start == 700
    assert monthly_rating(None, None, "2026-11") == 700


def test_monthly_table_restarts_on_the_first() -> None:
    # 812 was earned in October: the first November game starts again from 700.
    assert monthly_rating(812.0, "2026-10", "2026-11") == 700
    assert monthly_rating(812.0, "2026-11", "2026-11") == 812.0


def test_monthly_game_uses_the_lobby_maths_from_700() -> None:
    # 700 v 700 by 4: base = 2 · √4 = 4; gain 4 · 0.3^0.6 = 4 · 0.4855934 = 1.9423735;
    # loss 4 · 1.25 · 0.7 = 3.5
    assert lobby_update(700, 700, 4, params=MONTHLY_PARAMS) == pytest.approx(
        (701.9423734993209, 696.5), abs=1e-9
    )


# --- doubles -------------------------------------------------------------------------------


def test_doubles_both_winners_gain_and_both_losers_lose() -> None:
    # Winners (600, 400) average 500, losers (700, 300) average 500, margin 4:
    # base = 2 · √(4 · 500/500) = 4, then each partner's own drag:
    # 600: + 4 · 0.4^0.6 = 4 · 0.5770800 = 2.3083198
    # 400: + 4 · 0.6^0.6 = 4 · 0.7360219 = 2.9440877
    # 700: − 4 · 1.25 · 0.7 = 3.5
    # 300: − 4 · 1.25 · 0.3 = 1.5
    (w1, w2), (l1, l2) = doubles_update((600, 400), (700, 300), 4)
    assert (w1, w2) == pytest.approx((602.3083198494515, 402.9440876912713), abs=1e-9)
    assert (l1, l2) == pytest.approx((696.5, 298.5), abs=1e-9)


def test_doubles_uses_team_averages() -> None:
    # (900, 100) v (500, 500): the averages are equal, so the exchange is that of equals.
    (w1, w2), _ = doubles_update((900, 100), (500, 500), 9, params=DOUBLES_PARAMS)
    single_gain_at_100 = lobby_update(100, 100, 9)[0] - 100
    assert w2 - 100 == pytest.approx(single_gain_at_100)


def test_doubles_game_routes_by_scores() -> None:
    a, b = (600.0, 400.0), (700.0, 300.0)
    assert doubles_game(a, b, 30, 26) == doubles_update(a, b, 4)
    assert doubles_game(b, a, 26, 30) == doubles_update(a, b, 4)[::-1]
    assert doubles_game(a, b, 20, 20) == doubles_draw(a, b)


def test_doubles_draw_between_equal_teams_matches_single_draw() -> None:
    (a1, a2), (b1, b2) = doubles_draw((500, 500), (500, 500))
    assert a1 == a2 == b1 == b2 == pytest.approx(lobby_draw(500, 500)[0])


def test_doubles_robot_games_count_half() -> None:
    (w1, _), (l1, _) = doubles_update((500, 500), (500, 500), 9, robot=True)
    (fw1, _), (fl1, _) = doubles_update((500, 500), (500, 500), 9)
    assert w1 - 500 == pytest.approx((fw1 - 500) / 2)
    assert 500 - l1 == pytest.approx((500 - fl1) / 2)


# --- Master ranking ------------------------------------------------------------------------


def test_master_ranking_has_no_drag() -> None:
    # 960 beats 980 by 4: base = 2 · √(4 · 980/960) = 2 · 2.0207259 = 4.0414519, no drag,
    # so exactly zero-sum.
    w, lo = lobby_update(960, 980, 4, params=MASTER_PARAMS)
    assert (w, lo) == pytest.approx((964.0414518843273, 975.9585481156727), abs=1e-9)
    assert (w - 960) == pytest.approx(980 - lo)


def test_master_ranking_gains_at_the_top_are_not_dragged() -> None:
    dragged = lobby_update(960, 960, 9)[0] - 960
    master = lobby_update(960, 960, 9, params=MASTER_PARAMS)[0] - 960
    assert master == pytest.approx(6.0)  # 2 · √9
    assert dragged < master / 5


def test_master_draw_between_equals_changes_nothing() -> None:
    # Without drag, half a win and half a loss between equals cancel exactly.
    assert lobby_draw(700, 700, params=MASTER_PARAMS) == (700, 700)
    a, b = lobby_draw(600, 800, params=MASTER_PARAMS)
    assert a > 600
    assert b < 800
    assert a - 600 == pytest.approx(800 - b)
