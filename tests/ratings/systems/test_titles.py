"""Master title eligibility and lapse."""

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from ratings.systems import (
    MASTER_TITLE_PARAMS,
    MasterTitleParams,
    add_months,
    title_eligibility,
    title_lapse,
)


def test_eligible_with_950_an_elo_tournament_and_room_under_the_cap() -> None:
    result = title_eligibility(lobby_rating=950.0, elo_tournaments=1, titles_held=119)
    assert result.eligible
    assert result.reasons == ()


def test_not_eligible_says_why() -> None:
    result = title_eligibility(lobby_rating=949.9, elo_tournaments=0, titles_held=120)
    assert not result.eligible
    assert result.reasons == ("lobby_below_minimum", "no_elo_tournament", "cap_reached")


def test_cap_is_a_parameter() -> None:
    assert MASTER_TITLE_PARAMS.cap == 120
    params = MasterTitleParams(cap=100)
    result = title_eligibility(
        lobby_rating=990.0, elo_tournaments=3, titles_held=100, params=params
    )
    assert result.reasons == ("cap_reached",)


def test_add_months_keeps_the_day_or_takes_the_last() -> None:
    assert add_months(date(2026, 1, 10), 3) == date(2026, 4, 10)
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2027, 11, 30), 3) == date(2028, 2, 29)
    assert add_months(date(2026, 11, 15), 2) == date(2027, 1, 15)


FEB = [date(2026, 2, d) for d in range(1, 6)]  # five Master games, 1 to 5 February


def test_title_holds_with_five_games_in_three_months() -> None:
    # Awarded 10 January; the first check is 10 April, when the five February games are alive.
    status = title_lapse(
        awarded_on=date(2026, 1, 10), master_game_dates=FEB, today=date(2026, 4, 30)
    )
    assert not status.lapsed
    assert status.lapsed_on is None


def test_title_lapses_when_a_game_expires_below_five() -> None:
    # The 1 February game is alive until 1 May (exclusive): on 1 May only four are left.
    status = title_lapse(
        awarded_on=date(2026, 1, 10), master_game_dates=FEB, today=date(2026, 6, 1)
    )
    assert status.lapsed
    assert status.lapsed_on == date(2026, 5, 1)


def test_a_later_game_carries_the_title_one_more_day() -> None:
    # With a sixth game on 20 April, 1 May still has five alive (2–5 Feb and 20 Apr); on 2 May
    # the 2 February game expires and four are left.
    games = [*FEB, date(2026, 4, 20)]
    status = title_lapse(
        awarded_on=date(2026, 1, 10), master_game_dates=games, today=date(2026, 6, 1)
    )
    assert status.lapsed_on == date(2026, 5, 2)


def test_no_games_lapses_when_the_grace_ends() -> None:
    status = title_lapse(awarded_on=date(2026, 1, 10), master_game_dates=[], today=date(2026, 6, 1))
    assert status.lapsed_on == date(2026, 4, 10)
    during_grace = title_lapse(
        awarded_on=date(2026, 1, 10), master_game_dates=[], today=date(2026, 4, 9)
    )
    assert not during_grace.lapsed


def test_games_after_today_do_not_count() -> None:
    status = title_lapse(
        awarded_on=date(2026, 1, 10),
        master_game_dates=[date(2026, 7, 1)] * 5,
        today=date(2026, 4, 10),
    )
    assert status.lapsed_on == date(2026, 4, 10)


def brute_force_lapse(
    awarded_on: date, games: list[date], today: date, params: MasterTitleParams
) -> date | None:
    """Day by day, straight from the rule's wording."""
    day = add_months(awarded_on, params.window_months)
    while day <= today:
        alive = sum(1 for g in games if g <= day < add_months(g, params.window_months))
        if alive < params.games_to_keep:
            return day
        day += timedelta(days=1)
    return None


@given(
    awarded=st.dates(min_value=date(2025, 1, 1), max_value=date(2026, 12, 31)),
    offsets=st.lists(st.integers(min_value=-60, max_value=500), max_size=25),
    horizon=st.integers(min_value=0, max_value=500),
    keep=st.integers(min_value=1, max_value=6),
)
def test_lapse_matches_day_by_day_check(
    awarded: date, offsets: list[int], horizon: int, keep: int
) -> None:
    params = MasterTitleParams(games_to_keep=keep)
    games = [awarded + timedelta(days=o) for o in offsets]
    today = awarded + timedelta(days=horizon)
    status = title_lapse(awarded_on=awarded, master_game_dates=games, today=today, params=params)
    expected = brute_force_lapse(awarded, [g for g in games if g <= today], today, params)
    assert status.lapsed_on == expected
    assert status.lapsed == (expected is not None)
