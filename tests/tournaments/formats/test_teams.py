"""Team matches: boards summed, early end, tie-breaks, extra games on board 1 (pure)."""

from decimal import Decimal

import pytest

from tournaments.formats import FormatError, game_tps
from tournaments.formats.teams import (
    DEFAULT_TEAM_TIEBREAKS,
    TeamMatchRules,
    TeamReason,
    board_game_allowed,
    team_match_state,
    team_tiebreaks_check,
)

D = Decimal
FIVE_BY_TWO = TeamMatchRules(boards=5, games_per_board=2)
LEVEL = (D("10.0"), D("10.0"))


def g(a: str, b: str) -> tuple[Decimal, Decimal]:
    return (D(a), D(b))


def test_five_boards_of_two_games_put_200_tps_at_stake():
    assert FIVE_BY_TWO.planned_games == 10 and FIVE_BY_TWO.tps_at_stake == D(200)


def test_no_games_yet_and_in_progress():
    state = team_match_state([[] for _ in range(5)], FIVE_BY_TWO)
    assert not state.decided and state.reason is TeamReason.IN_PROGRESS
    assert state.games_left == 10 and state.totals == (D(0), D(0))
    state = team_match_state([[game_tps(30, 10)], [], [], [], []], FIVE_BY_TWO)
    assert not state.decided and state.games_left == 9 and state.totals == (D(18), D(2))


def test_decided_on_summed_tps_not_boards_won():
    # A wins boards 1-3 narrowly, B wins boards 4-5 heavily: B has more TPs.
    narrow, heavy = game_tps(21, 20), game_tps(10, 40)
    boards = [[narrow, narrow], [narrow, narrow], [narrow, narrow], [heavy, heavy], [heavy, heavy]]
    state = team_match_state(boards, FIVE_BY_TWO)
    assert state.decided and state.winner == 1 and state.reason is TeamReason.DECIDED_ON_TPS
    assert [b.winner for b in state.boards] == [0, 0, 0, 1, 1]
    assert state.running[-1] == state.planned_totals == state.totals


def test_early_end_once_the_lead_cannot_be_caught():
    rules = TeamMatchRules(boards=3, games_per_board=1)
    # 20-0 and 20-0: lead 40 with one game left (20 at stake): over.
    state = team_match_state([[g("20.0", "0.0")], [g("20.0", "0.0")], []], rules)
    assert state.decided and state.winner == 0 and state.reason is TeamReason.DECIDED_EARLY
    assert board_game_allowed(state, rules, 3) is None  # the last board may still play
    # Lead exactly 20 with one game left: the trailer can still level.
    state = team_match_state([[g("20.0", "0.0")], [LEVEL], []], rules)
    assert not state.decided and state.reason is TeamReason.IN_PROGRESS
    # A game played after the early end counts in the totals; the winner stands.
    state = team_match_state([[g("20.0", "0.0")], [g("20.0", "0.0")], [g("0.0", "20.0")]], rules)
    assert state.decided and state.winner == 0 and state.totals == (D(40), D(20))


def test_tie_breaks_in_the_event_order():
    rules = TeamMatchRules(boards=3, games_per_board=1)
    # Level 30-30: A wins two boards (15.8-4.2, 14.2-5.8), B one (20-0).
    boards = [[g("15.8", "4.2")], [g("14.2", "5.8")], [g("0.0", "20.0")]]
    state = team_match_state(boards, rules)
    assert state.planned_totals == (D(30), D(30))
    assert state.decided and state.winner == 0 and state.reason is TeamReason.DECIDED_ON_BOARDS_WON
    # With board 1 first the same result is A's too; reversed boards make it B's.
    rules_b1 = TeamMatchRules(boards=3, games_per_board=1, tiebreaks=("board_1",))
    reversed_boards = [[g("0.0", "20.0")], [g("14.2", "5.8")], [g("15.8", "4.2")]]
    state = team_match_state(reversed_boards, rules_b1)
    assert state.winner == 1 and state.reason is TeamReason.DECIDED_ON_BOARD_1


def test_extra_games_on_board_1_when_every_other_tie_break_is_level():
    rules = TeamMatchRules(boards=2, games_per_board=1, max_extra_games=2)
    boards = [[LEVEL], [LEVEL]]
    state = team_match_state(boards, rules)
    assert state.reason is TeamReason.EXTRA_GAME_NEEDED and not state.decided
    assert board_game_allowed(state, rules, 1) is None
    assert board_game_allowed(state, rules, 2) == "only board 1 plays on (extra games)"
    state = team_match_state([[LEVEL, LEVEL], [LEVEL]], rules)
    assert state.reason is TeamReason.EXTRA_GAME_NEEDED and state.extra_games_played == 1
    state = team_match_state([[LEVEL, LEVEL, g("12.0", "8.0")], [LEVEL]], rules)
    assert state.decided and state.winner == 0
    assert state.reason is TeamReason.DECIDED_IN_EXTRA_GAMES
    assert state.totals == (D(42), D(38)) and state.planned_totals == (D(20), D(20))
    # Level after the last extra game: an organiser rules.
    state = team_match_state([[LEVEL, LEVEL, LEVEL], [LEVEL]], rules)
    assert not state.decided and state.reason is TeamReason.LEVEL_NEEDS_RULING


def test_level_without_extra_games_needs_a_ruling():
    rules = TeamMatchRules(boards=2, games_per_board=1, tiebreaks=("boards_won", "board_1"))
    state = team_match_state([[LEVEL], [LEVEL]], rules)
    assert not state.decided and state.reason is TeamReason.LEVEL_NEEDS_RULING


def test_impossible_input_is_refused():
    rules = TeamMatchRules(boards=2, games_per_board=1)
    with pytest.raises(FormatError, match="2 boards got 1"):
        team_match_state([[]], rules)
    with pytest.raises(FormatError, match="does not share"):
        team_match_state([[g("15.0", "4.0")], []], rules)
    with pytest.raises(FormatError, match="board 2 has 2 games"):
        team_match_state([[], [LEVEL, LEVEL]], rules)
    with pytest.raises(FormatError, match="before every planned game"):
        team_match_state([[LEVEL, LEVEL], []], rules)
    with pytest.raises(FormatError, match="decided the match|decided on TPs"):
        team_match_state([[g("20.0", "0.0"), LEVEL], [LEVEL]], rules)
    state = team_match_state([[LEVEL], [g("20.0", "0.0")]], rules)
    assert board_game_allowed(state, rules, 2) == "board 2 has played its 1 games"
    assert board_game_allowed(state, rules, 3) == "there is no board 3"


def test_tie_break_lists_are_checked():
    assert team_tiebreaks_check(DEFAULT_TEAM_TIEBREAKS) == DEFAULT_TEAM_TIEBREAKS
    with pytest.raises(FormatError, match="unknown"):
        team_tiebreaks_check(["coin"])
    with pytest.raises(FormatError, match="twice"):
        team_tiebreaks_check(["board_1", "board_1"])
    with pytest.raises(FormatError, match="last"):
        team_tiebreaks_check(["extra_games", "board_1"])
    with pytest.raises(FormatError):
        TeamMatchRules(boards=0, games_per_board=1)
