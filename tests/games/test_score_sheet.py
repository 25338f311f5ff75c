"""Score sheets of face-to-face games: plausibility checks, the result, and the TPs it earns."""

from decimal import Decimal

import pytest

from games.models import EndReason, Game, GameSeat
from games.score_sheet import (
    MAX_SCORE,
    Ending,
    ScoreSheet,
    ScoreSheetError,
    score_sheet_parse,
)
from tournaments.formats import FormatError, result_tps, tps_for_margin
from tournaments.matches.services.tps import game_tps


def errors_of(data: dict) -> dict[str, list[str]]:
    with pytest.raises(ScoreSheetError) as caught:
        score_sheet_parse(data)
    return caught.value.errors


def test_a_played_out_game_from_form_strings():
    sheet = score_sheet_parse({"score_a": " 24", "score_b": "17", "minutes_a": "", "ending": ""})
    assert sheet == ScoreSheet(score_a=24, score_b=17)
    assert sheet.winner_seat == 0 and sheet.margin == 7 and not sheet.is_draw
    assert sheet.end_reason == EndReason.COMPLETED


def test_limits_are_inclusive():
    sheet = score_sheet_parse(
        {"score_a": 0, "score_b": MAX_SCORE, "minutes_a": 0, "minutes_b": 240}
    )
    assert sheet.scores == (0, 84) and sheet.winner_seat == 1
    assert (sheet.minutes_a, sheet.minutes_b) == (0, 240)


def test_equal_scores_are_a_draw():
    sheet = score_sheet_parse({"score_a": 15, "score_b": 15})
    assert sheet.is_draw and sheet.winner_seat is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("12.5", "whole number"),
        (12.5, "whole number"),
        ("twelve", "whole number"),
        (True, "whole number"),
        ([12], "whole number"),
        (-1, "between 0 and 84"),
        ("85", "between 0 and 84"),
        (200, "at most 42 tiles"),
    ],
)
def test_implausible_scores_name_the_field(value, words):
    errors = errors_of({"score_a": value, "score_b": 10})
    assert list(errors) == ["score_a"]
    assert words in errors["score_a"][0]


def test_a_whole_float_is_accepted_as_json_may_send_it():
    assert score_sheet_parse({"score_a": 12.0, "score_b": 3}).score_a == 12


def test_every_problem_is_reported_at_once():
    errors = errors_of({"score_b": "x", "minutes_a": "300", "minutes_b": "1.5", "ending": "draw"})
    assert set(errors) == {"score_a", "score_b", "minutes_a", "minutes_b", "ending"}
    assert "Give side A's score" in errors["score_a"][0]
    assert "between 0 and 240" in errors["minutes_a"][0]
    assert "resigned" in errors["ending"][0]


def test_a_resignation_names_who_resigned_and_loses_whatever_the_scores():
    sheet = score_sheet_parse(
        {"score_a": "20", "score_b": "11", "ending": "resigned", "conceded_by": "A"}
    )
    assert sheet.ending is Ending.RESIGNED and sheet.conceded_by == 0
    assert sheet.winner_seat == 1
    assert sheet.describe("Ann", "Bob") == "Ann 20 – 11 Bob (Ann resigned)"
    assert score_sheet_parse(sheet.as_dict()) == sheet


def test_a_time_loss_needs_the_side_and_a_played_out_game_refuses_one():
    assert (
        "lost on time"
        in errors_of({"score_a": 3, "score_b": 4, "ending": "time"})["conceded_by"][0]
    )
    assert (
        "played to the end"
        in errors_of({"score_a": 3, "score_b": 4, "conceded_by": "b"})["conceded_by"][0]
    )
    assert (
        "a or b"
        in errors_of({"score_a": 3, "score_b": 4, "ending": "time", "conceded_by": "c"})[
            "conceded_by"
        ][0]
    )
    sheet = score_sheet_parse({"score_a": 3, "score_b": 4, "ending": "TIME", "conceded_by": 1})
    assert sheet.winner_seat == 0 and sheet.end_reason == EndReason.TIME


def test_result_tps_from_the_margin():
    assert result_tps(24, 17) == (Decimal("15.5"), Decimal("4.5"))  # margin 7 → 15.5 (table)
    assert result_tps(15, 15) == (Decimal("10.0"), Decimal("10.0"))
    # B resigned when 4 tiles ahead: A wins by the margin.
    assert result_tps(10, 14, conceded_by=1) == (Decimal("14.7"), Decimal("5.3"))
    # Level when A lost on time: at least a one-tile win for B.
    assert result_tps(9, 9, conceded_by=0) == (Decimal("6.7"), Decimal("13.3"))
    assert result_tps(0, 84, conceded_by=0) == tuple(reversed(tps_for_margin(84)))
    with pytest.raises(FormatError):
        result_tps(-1, 3, conceded_by=0)
    with pytest.raises(ValueError):
        result_tps(1, 3, conceded_by=2)


@pytest.mark.parametrize(
    ("a", "b", "ending", "side"),
    [
        (24, 17, "completed", None),
        (17, 24, "completed", None),
        (12, 12, "completed", None),
        (20, 11, "resigned", "a"),
        (20, 11, "resigned", "b"),
        (5, 5, "time", "b"),
        (40, 2, "time", "a"),
    ],
)
def test_a_score_sheet_earns_what_the_same_online_game_earns(a, b, ending, side):
    """The counting of online games (tournaments.matches.services.results) gives the same TPs."""
    sheet = score_sheet_parse({"score_a": a, "score_b": b, "ending": ending, "conceded_by": side})
    game = Game(end_reason=sheet.end_reason, winner_seat=sheet.winner_seat)
    seats = [GameSeat(seat=0, score=a), GameSeat(seat=1, score=b)]
    assert result_tps(*sheet.scores, conceded_by=sheet.conceded_by) == game_tps(game, seats, 1)
