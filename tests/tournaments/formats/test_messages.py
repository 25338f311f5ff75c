"""Format messages are English templates with their parameters apart (pure)."""

from __future__ import annotations

import pytest

from tournaments.formats import FormatError, swiss_pairings
from tournaments.formats.errors import Message
from tournaments.formats.labels import knockout_round_names, waiting_slot
from tournaments.formats.teams import TeamMatchRules, board_game_allowed, team_match_state


def test_a_format_error_reads_in_english_and_keeps_its_template():
    with pytest.raises(FormatError) as caught:
        swiss_pairings([], played=[], byes=[], round_no=4)
    error = caught.value
    assert str(error) == "cannot pair round 4: a Swiss round needs at least 2 players"
    assert error.template == "cannot pair round %(round)s: a Swiss round needs at least 2 players"
    assert error.params == {"round": 4}


def test_a_refusal_is_an_english_string_that_keeps_its_template():
    rules = TeamMatchRules(boards=2, games_per_board=1)
    state = team_match_state([[], []], rules)
    refusal = board_game_allowed(state, rules, 3)
    assert isinstance(refusal, Message)
    assert refusal == "there is no board 3"
    assert (refusal.template, refusal.params) == ("there is no board %(board)s", {"board": 3})


def test_round_names_come_in_the_callers_language():
    words = {  # a stand-in catalogue
        "Round of %(size)s": "1/%(size)s",
        "Semi-final": "Demi-finale",
        "QF": "QdF",
        "Winner of %(slot)s": "Vainqueur %(slot)s",
    }

    def translate(message: str) -> str:
        return words.get(message, message)

    assert knockout_round_names(1, 7, gettext=translate).plural == "1/128"
    assert knockout_round_names(6, 7, gettext=translate).singular == "Demi-finale"
    assert waiting_slot(5, 7, 1, gettext=translate) == "Vainqueur QdF 2"
