"""Match state: totals, early finish, extra games and the level-match ruling."""

from decimal import Decimal

import pytest

from tournaments.formats import FormatError, MatchReason, MatchRules, game_tps, match_state

D = Decimal
TWO = MatchRules(planned_games=2)
THREE_WITH_EXTRAS = MatchRules(planned_games=3, extra_margin=D(5), max_extra_games=3)


def test_two_game_match_decided_on_summed_tps_not_games_won():
    # A win by 8 and a loss by 5: one game each, but side A has more TPs.
    state = match_state([game_tps(20, 12), game_tps(4, 9)], TWO)
    assert state.totals == (D("20.8"), D("19.2"))
    assert state.decided and state.winner == 0
    assert state.reason is MatchReason.DECIDED_ON_TPS
    assert state.games_played == 2 and state.games_needed == 0


def test_in_progress():
    state = match_state([game_tps(10, 8)], TWO)
    assert not state.decided and state.winner is None
    assert state.games_needed == 1 and state.reason is MatchReason.IN_PROGRESS


def test_no_games_yet():
    state = match_state([], TWO)
    assert state.totals == (D("0.0"), D("0.0")) and state.games_needed == 2


def test_early_finish_when_the_lead_exceeds_20_per_game_left():
    three = MatchRules(planned_games=3)
    # 20.0 + 19.9 = 39.9 vs 0.1: lead 39.8 > 20 with one game left.
    state = match_state([game_tps(40, 0), game_tps(35, 0)], three)
    assert state.decided and state.winner == 0 and state.reason is MatchReason.DECIDED_EARLY
    assert state.games_needed == 0
    # Lead of exactly 20 is not enough: the trailing side can still level.
    state = match_state([(D("20.0"), D("0.0")), (D("10.0"), D("10.0"))], three)
    assert not state.decided and state.games_needed == 1


def test_early_finish_with_extra_games_needs_the_margin_too():
    # Lead 22 with one planned game left: the trailer can cut it to 2, under the margin of 5,
    # and force extra games, so the match is not over yet.
    games = [(D("20.0"), D("0.0")), (D("11.0"), D("9.0"))]
    assert not match_state(games, THREE_WITH_EXTRAS).decided
    # Lead 26: even 0-20 in game 3 leaves 6 ≥ 5, so it is over.
    games = [(D("20.0"), D("0.0")), (D("13.0"), D("7.0"))]
    state = match_state(games, THREE_WITH_EXTRAS)
    assert state.decided and state.reason is MatchReason.DECIDED_EARLY


def test_planned_game_after_an_early_finish_still_counts():
    three = MatchRules(planned_games=3)
    state = match_state([game_tps(40, 0), game_tps(35, 0), game_tps(0, 10)], three)
    assert state.decided and state.winner == 0 and state.games_played == 3


def test_extra_games_until_the_margin_is_reached():
    planned = [game_tps(10, 8), game_tps(8, 9), game_tps(5, 5)]  # 20.6-19.4: lead 1.2
    state = match_state(planned, THREE_WITH_EXTRAS)
    assert state.reason is MatchReason.EXTRA_GAME_NEEDED and state.games_needed == 1
    assert not state.decided
    state = match_state([*planned, game_tps(5, 10)], THREE_WITH_EXTRAS)  # B 15-5: B by 8.8
    assert state.decided and state.winner == 1
    assert state.reason is MatchReason.DECIDED_IN_EXTRA_GAMES and state.extra_games_played == 1


def test_extra_games_cap_then_higher_total_wins():
    planned = [game_tps(10, 8), game_tps(8, 9), game_tps(5, 5)]  # A leads by 1.2
    extras = [game_tps(4, 4), game_tps(4, 4), game_tps(4, 4)]
    state = match_state(planned + extras, THREE_WITH_EXTRAS)
    assert state.decided and state.winner == 0
    assert state.reason is MatchReason.DECIDED_AT_EXTRA_CAP and state.extra_games_played == 3


def test_level_after_everything_needs_a_ruling():
    level = [game_tps(4, 4)] * 6
    state = match_state(level, THREE_WITH_EXTRAS)
    assert not state.decided and state.winner is None and state.games_needed == 0
    assert state.reason is MatchReason.LEVEL_NEEDS_RULING
    state = match_state([game_tps(4, 4), game_tps(1, 1)], TWO)
    assert state.reason is MatchReason.LEVEL_NEEDS_RULING


def test_margin_reached_in_planned_games_needs_no_extra():
    state = match_state([game_tps(10, 4)] * 3, THREE_WITH_EXTRAS)
    assert state.decided and state.reason is MatchReason.DECIDED_ON_TPS


def test_user_facing_errors():
    with pytest.raises(FormatError, match="extra game, but the match was already decided"):
        match_state([game_tps(10, 4)] * 4, THREE_WITH_EXTRAS)
    with pytest.raises(FormatError, match="one too many"):
        match_state([game_tps(10, 4)] * 3, TWO)
    with pytest.raises(FormatError, match="shares 20"):
        match_state([(D("12.0"), D("7.0"))], TWO)
    with pytest.raises(FormatError, match="at least one game"):
        MatchRules(planned_games=0)
    with pytest.raises(FormatError, match="positive TP margin"):
        MatchRules(planned_games=2, max_extra_games=2)
