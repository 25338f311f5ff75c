"""Adjudicating records: the spec examples, every error code, their priority, the end."""

from __future__ import annotations

import json

import pytest

from games.engine import adjudicate, selfplay
from games.engine.board import Board
from games.engine.lines import Line, line_report
from games.engine.tables import WORDS

from .support import (
    EXAMPLES,
    Script,
    board_of,
    edges,
    fitting,
    flower_record,
    pick,
    recount,
    rotations,
    spot,
)

EXAMPLE_NAMES = ["two-player", "pairs", "invalid-rotation"]


def example(name: str) -> dict:
    if not (EXAMPLES / f"{name}.json").exists():
        pytest.skip(f"{EXAMPLES} is absent (no shared spec here)")
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def error(verdict: dict) -> tuple[str, int | None, int | None]:
    assert verdict["valid"] is False, verdict
    found = verdict["error"]
    return found["code"], found["placement"], found["player"]


def opening() -> Script:
    script = Script()
    script.put(0, 0, 0)
    script.put(1, 1, 0)
    return script


# ---------------------------------------------------------------------------- spec examples
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_spec_examples_give_exactly_their_verdicts(name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    if not path.exists():
        pytest.skip(f"{EXAMPLES} is absent (no shared spec here)")
    expected = json.loads((EXAMPLES / f"{name}.verdict.json").read_text())
    text = path.read_text()
    assert adjudicate(text) == expected
    assert adjudicate(text.encode()) == expected
    assert adjudicate(json.loads(text)) == expected


def test_examples_scores_agree_with_an_independent_recount() -> None:
    for name in ("two-player", "pairs"):
        record = example(name)
        board = board_of(record)
        verdict = adjudicate(record)
        for seat, player in enumerate(record["players"]):
            line, loop, _ = recount(board, player["colour"])
            assert verdict["scores"][seat] == max(line, 2 * loop)


# ---------------------------------------------------------------------------- seat and hand
def test_wrong_player() -> None:
    script = Script()
    script.put(0, 0, 0)
    script.put(0, 1, 0)
    verdict = adjudicate(script.record())
    assert error(verdict) == ("WRONG_PLAYER", 2, 0)
    assert "it is seat 1 (player1)'s turn" in verdict["error"]["message"]


def test_wrong_player_on_the_first_placement() -> None:
    script = Script()
    script.put(1, 0, 0)
    assert error(adjudicate(script.record())) == ("WRONG_PLAYER", 1, 1)


def test_wrong_player_comes_before_not_in_hand() -> None:
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    stranger = record["hands"][1][0]
    record["placements"].append({"player": 0, "tile": stranger, "q": 1, "r": 0, "rotation": 0})
    assert error(adjudicate(record))[0] == "WRONG_PLAYER"


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("other hand", "it is in seat 0 (player0)'s hand"),
        ("bag", "it is still in the bag"),
        ("placed", "it was already placed at placement 1"),
    ],
)
def test_not_in_hand_says_where_the_tile_is(where: str, words: str) -> None:
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    tile = {
        "other hand": record["hands"][0][1],
        "bag": record["bag"][10],
        "placed": record["placements"][0]["tile"],
    }[where]
    record["placements"].append({"player": 1, "tile": tile, "q": 1, "r": 0, "rotation": 0})
    verdict = adjudicate(record)
    assert error(verdict) == ("NOT_IN_HAND", 2, 1)
    assert words in verdict["error"]["message"]
    assert f"tile {tile} is not in seat 1's hand" in verdict["error"]["message"]


def test_not_in_hand_comes_before_occupied() -> None:
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    tile = record["hands"][0][1]
    record["placements"].append({"player": 1, "tile": tile, "q": 0, "r": 0, "rotation": 0})
    assert error(adjudicate(record))[0] == "NOT_IN_HAND"


# ---------------------------------------------------------------------------- cell and colours
def test_occupied_comes_before_not_adjacent() -> None:
    # (0, 0) itself touches no placed tile, but that it is taken is what matters.
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    tile = record["hands"][1][0]
    record["placements"].append({"player": 1, "tile": tile, "q": 0, "r": 0, "rotation": 2})
    verdict = adjudicate(record)
    assert error(verdict) == ("OCCUPIED", 2, 1)
    held = record["placements"][0]["tile"]
    assert f"already holds tile {held} (placement 1)" in verdict["error"]["message"]


@pytest.mark.parametrize(("q", "r"), [(3, 3), (0, 2), (10**30, 0), (-(10**50), 10**50)])
def test_not_adjacent(q: int, r: int) -> None:
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    tile = record["hands"][1][0]
    record["placements"].append({"player": 1, "tile": tile, "q": q, "r": r, "rotation": 0})
    verdict = adjudicate(record)
    assert error(verdict) == ("NOT_ADJACENT", 2, 1)
    assert "touches no placed tile" in verdict["error"]["message"]


def test_colour_mismatch_message_format() -> None:
    script = Script()
    script.put(0, 0, 0)
    record = script.record()
    tile = record["hands"][1][0]
    board = board_of(record)
    wrong = next(k for k in range(6) if k not in rotations(board, (1, 0), tile))
    record["placements"].append({"player": 1, "tile": tile, "q": 1, "r": 0, "rotation": wrong})
    verdict = adjudicate(record)
    assert error(verdict) == ("COLOUR_MISMATCH", 2, 1)
    assert verdict["error"]["message"] == (
        f"placement 2 (tile {tile} at q=1 r=0, rotation {wrong}): an edge colour differs from "
        "the tile it touches"
    )


def test_first_tile_may_go_anywhere() -> None:
    script = Script()
    script.put(0, 7, -3)
    script.put(1, 8, -3)
    verdict = adjudicate(script.record())
    assert verdict["valid"] and verdict["end"] == "resigned"


# ---------------------------------------------------------------------------- restrictions
def test_three_of_a_colour() -> None:
    script = Script()
    script.put(0, 0, 0, tile=1, rotation=0)
    script.put(1, 1, 0, tile=2, rotation=4)
    script.put(0, -1, 1, tile=3, rotation=5, allow_r1=True)
    verdict = adjudicate(script.record())
    assert error(verdict) == ("THREE_OF_A_COLOUR", 3, 0)
    assert verdict["error"]["message"] == (
        "placement 3 (tile 3 at q=-1 r=1, rotation 5): the space at q=0 r=1 would have three "
        "blue sides, which no tile can fill (R1, three of a colour)"
    )


def test_the_same_tile_turned_the_other_way_is_fine() -> None:
    script = Script()
    script.put(0, 0, 0, tile=1, rotation=0)
    script.put(1, 1, 0, tile=2, rotation=4)
    script.put(0, -1, 1, tile=3, rotation=0)
    assert adjudicate(script.record())["valid"]


def forced_at_0_1(third: tuple[int, int] = (-1, 1)) -> Script:
    """Seats 0, 1, 0 make (0, 1) a forced space that no one can fill."""
    script = opening()
    script.put(0, *third)
    return script


def test_four_sided_space() -> None:
    script = forced_at_0_1()
    script.put(1, 1, 1)
    verdict = adjudicate(script.record())
    assert error(verdict) == ("FOUR_SIDED_SPACE", 4, 1)
    assert "the space at q=0 r=1 would have 4 occupied sides" in verdict["error"]["message"]


def test_controlled_side() -> None:
    script = opening()
    script.put(0, 2, 0)
    script.put(1, -1, 1)  # (0, 1) is now forced, and no one can fill it
    script.put(0, 2, 1)  # along the row: controlled by (0, 1)
    verdict = adjudicate(script.record())
    assert error(verdict) == ("CONTROLLED_SIDE", 5, 0)
    assert verdict["error"]["message"].startswith(
        f"placement 5 (tile {script.moves[4]['tile']} at q=2 r=1): this side is controlled by "
        "the forced space at q=0 r=1"
    )


def test_r1_comes_before_r3() -> None:
    # (0, 1) forced; (1, 1) shows blue on two sides; a tile at (2, 1) showing blue towards
    # (1, 1) breaks R1 there, and R3 as well.
    script = Script()
    script.put(0, 0, 0, tile=3, rotation=4)
    script.put(1, 1, 0, tile=1, rotation=0)
    script.put(0, 2, 0, tile=2, rotation=4)
    script.put(1, -1, 1, tile=4, rotation=0)
    tile, k = pick(script.board, (2, 1), {5: "B"}, avoid=script.dangerous)
    script.put(0, 2, 1, tile=tile, rotation=k, allow_r1=True)
    assert error(adjudicate(script.record())) == ("THREE_OF_A_COLOUR", 5, 0)


# ---------------------------------------------------------------------------- forced play
def test_next_seat_playing_while_the_mover_must_fill() -> None:
    record = flower_record(upto=6)
    # Give seat 0 a tile that fits somewhere, so that only the skipped fill is wrong.
    record["hands"][0][5] = 1
    record["bag"][1] = 29
    board = board_of(record)
    q, r, k = spot(board, 1, exclude=[(-1, 0)])
    record["placements"].append({"player": 0, "tile": 1, "q": q, "r": r, "rotation": k})
    verdict = adjudicate(record)
    assert error(verdict) == ("FORCED_PLAY_REQUIRED", 7, 0)
    message = verdict["error"]["message"]
    assert "seat 1 (bela) must fill" in message and "before seat 0 plays" in message
    assert "the forced space at q=-1 r=0" in message and "tile 23 fits it" in message


def test_colour_mismatch_comes_before_forced_play() -> None:
    record = flower_record(upto=6)
    record["placements"].append({"player": 0, "tile": 26, "q": 0, "r": -2, "rotation": 0})
    assert error(adjudicate(record)) == ("COLOUR_MISMATCH", 7, 0)


def test_mover_placing_elsewhere_after_the_free_move() -> None:
    record = flower_record(upto=6)
    board = board_of(record)
    # Seat 1 drew tile 1 after its first placement.
    q, r, k = spot(board, 1, exclude=[(-1, 0)])
    record["placements"].append({"player": 1, "tile": 1, "q": q, "r": r, "rotation": k})
    verdict = adjudicate(record)
    assert error(verdict) == ("FORCED_PLAY_REQUIRED", 7, 1)
    assert "the free move was already made this turn" in verdict["error"]["message"]


def test_a_placement_into_a_forced_space_is_a_fill_attempt() -> None:
    record = flower_record(upto=6)
    record["placements"].append({"player": 1, "tile": 40, "q": -1, "r": 0, "rotation": 0})
    assert error(adjudicate(record)) == ("COLOUR_MISMATCH", 7, 1)


def flower_for_seat_0() -> dict:
    """The flower, but only seat 0 can fill the forced space seat 1's sixth placement makes."""
    record = flower_record(upto=6)
    board = board_of(record)
    fits = fitting(board, (-1, 0), range(1, 57)) - {tile for tile, _ in board.values()}
    assert 23 in fits
    # Seat 1 gives tile 23 to seat 0 for tile 27, which cannot fill.
    record["hands"][0][4], record["hands"][1][3] = 23, 27
    seat_1_holds = set(record["hands"][1]) | {record["bag"][i] for i in (1, 3, 5)}
    assert not fits & seat_1_holds
    return record


def test_free_move_while_a_fill_is_possible() -> None:
    record = flower_for_seat_0()
    board = board_of(record)
    # Seat 0 makes its free move with tile 23 somewhere else instead of filling.
    q, r, k = spot(board, 23, exclude=[(-1, 0)])
    record["placements"].append({"player": 0, "tile": 23, "q": q, "r": r, "rotation": k})
    verdict = adjudicate(record)
    assert error(verdict) == ("FORCED_PLAY_REQUIRED", 7, 0)
    assert verdict["error"]["message"].startswith(
        f"placement 7 (tile 23 at q={q} r={r}): a free move while the forced space at q=-1 r=0 "
        "could be filled (tile 23 fits it, rotation 0)"
    )


def test_filling_first_is_accepted() -> None:
    record = flower_for_seat_0()
    record["placements"].append({"player": 0, "tile": 23, "q": -1, "r": 0, "rotation": 0})
    record["end"] = {"reason": "time", "player": 1}
    verdict = adjudicate(record)
    assert verdict["valid"] and verdict["winner"] == 0 and verdict["end"] == "time"


# ---------------------------------------------------------------------------- deadlock, end
def test_deadlock_is_a_draw() -> None:
    record = flower_record()
    verdict = adjudicate(record)
    board = board_of(record)
    assert verdict == {
        "valid": True,
        "scores": [
            max(recount(board, "red")[0], 2 * recount(board, "red")[1]),
            max(recount(board, "blue")[0], 2 * recount(board, "blue")[1]),
        ],
        "winner": None,
        "placements": 7,
        "turns": 6,
        "endgame_from": None,
        "end": "deadlock",
        "lines": verdict["lines"],
    }
    # Independently: seat 0 holds six tiles without yellow, and none fits any cell.
    hand = [26, 27, 29, 37, 38, 39]
    assert all("Y" not in edges(tile, 0) for tile in hand)


@pytest.mark.parametrize("reason", ["completed", {"reason": "resigned", "player": 1}])
def test_a_claimed_end_that_was_really_a_deadlock_is_that_deadlock(reason) -> None:
    end = {"reason": reason} if isinstance(reason, str) else reason
    verdict = adjudicate(flower_record(end=end))
    assert verdict["valid"] and verdict["end"] == "deadlock" and verdict["winner"] is None


@pytest.mark.parametrize(("seat", "tile"), [(0, 26), (1, 40)])
def test_placements_after_a_deadlock_are_game_over(seat: int, tile: int) -> None:
    record = flower_record()
    record["placements"].append({"player": seat, "tile": tile, "q": 0, "r": -2, "rotation": 0})
    verdict = adjudicate(record)
    assert error(verdict) == ("GAME_OVER", 8, seat)
    assert "had already ended in a deadlock" in verdict["error"]["message"]


def test_a_deadlock_claim_while_the_mover_can_still_fill_is_incomplete() -> None:
    verdict = adjudicate(flower_record(upto=6))
    assert error(verdict) == ("INCOMPLETE", None, 1)
    assert "must still fill the forced space at q=-1 r=0" in verdict["error"]["message"]


@pytest.mark.parametrize("upto", [0, 1, 30, 55])
def test_stopping_early_is_incomplete(upto: int) -> None:
    record = example("two-player")
    record["placements"] = record["placements"][:upto]
    verdict = adjudicate(record)
    assert error(verdict)[:2] == ("INCOMPLETE", None)


def test_resignation_and_time_end_the_game() -> None:
    record = example("two-player")
    record["placements"] = record["placements"][:20]
    for reason, loser, winner in [("resigned", 0, 1), ("time", 1, 0)]:
        record["end"] = {"reason": reason, "player": loser}
        verdict = adjudicate(record)
        assert verdict["valid"] and verdict["end"] == reason and verdict["winner"] == winner
        assert verdict["placements"] == 20 and verdict["endgame_from"] is None


def test_resignation_in_pairs_gives_the_other_team() -> None:
    record = example("pairs")
    record["placements"] = record["placements"][:10]
    for loser in range(4):
        record["end"] = {"reason": "resigned", "player": loser}
        verdict = adjudicate(record)
        assert verdict["valid"] and verdict["winner"] % 2 != loser % 2


def test_resignation_with_three_players_goes_to_the_best_other_score() -> None:
    record = selfplay(4, "3")
    record["placements"] = record["placements"][:30]
    for loser in range(3):
        record["end"] = {"reason": "resigned", "player": loser}
        verdict = adjudicate(record)
        others = [s for s in range(3) if s != loser]
        best = max(verdict["scores"][s] for s in others)
        leaders = [s for s in others if verdict["scores"][s] == best]
        assert verdict["winner"] == (leaders[0] if len(leaders) == 1 else None)


def test_a_resignation_after_the_last_tile_is_a_completed_game() -> None:
    record = example("two-player")
    record["end"] = {"reason": "resigned", "player": 0}
    verdict = adjudicate(record)
    assert verdict["valid"] and verdict["end"] == "completed" and verdict["winner"] == 0


def test_claimed_scores_that_differ_are_reported_not_fatal() -> None:
    record = example("two-player")
    record["claimed_scores"] = [20, 11]
    verdict = adjudicate(record)
    assert verdict["valid"] and verdict["claimed_scores_match"] is False
    del record["claimed_scores"]
    assert "claimed_scores_match" not in adjudicate(record)


# ---------------------------------------------------------------------------- scoring
def test_three_tile_loops_score_six() -> None:
    record = flower_record()
    verdict = adjudicate(record)
    board = board_of(record)
    for colour in ("red", "blue"):
        line, loop, _ = recount(board, colour)
        assert loop == 3 and line < 6
        assert verdict["lines"][colour] == {"kind": "loop", "tiles": 3}
    assert verdict["scores"] == [6, 6]


def test_lines_report_the_better_of_loop_and_line() -> None:
    assert line_report(Line(line=7, loop=3)) == {"kind": "line", "tiles": 7}
    assert line_report(Line(line=5, loop=3)) == {"kind": "loop", "tiles": 3}
    assert line_report(Line(line=6, loop=3)) == {"kind": "loop", "tiles": 3}  # a tie
    assert line_report(Line(line=23, loop=12)) == {"kind": "loop", "tiles": 12}
    assert Line(line=23, loop=12).score == 24 and Line(line=23, loop=0).score == 23
    assert line_report(Line(line=0, loop=0)) == {"kind": "line", "tiles": 0}


def test_the_longest_line_is_the_best_of_several_components() -> None:
    found = 0
    for seed in range(30):
        record = selfplay(seed)
        verdict = adjudicate(record)
        board = board_of(record)
        for seat, player in enumerate(record["players"]):
            line, loop, components = recount(board, player["colour"])
            lines = sorted(n for kind, n in components if kind == "line")
            if len(lines) >= 2:
                found += 1
            assert verdict["scores"][seat] == max(line, 2 * loop)
    assert found > 0


def test_pairs_partners_score_the_team_colour() -> None:
    verdict = adjudicate(example("pairs"))
    scores = verdict["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert verdict["winner"] in (0, 2)


def test_equal_scores_are_a_draw() -> None:
    verdict = adjudicate(flower_record(end={"reason": "completed"}))
    assert verdict["scores"][0] == verdict["scores"][1] and verdict["winner"] is None


def test_winner_follows_the_scores_in_completed_games() -> None:
    for players in ("2", "3", "4", "pairs"):
        for seed in range(5):
            verdict = adjudicate(selfplay(seed, players))
            scores = verdict["scores"]
            contenders = [0, 1] if players == "pairs" else range(len(scores))
            best = max(scores[s] for s in contenders)
            leaders = [s for s in contenders if scores[s] == best]
            assert verdict["winner"] == (leaders[0] if len(leaders) == 1 else None)


# ---------------------------------------------------------------------------- the endgame
def test_the_endgame_lifts_r1_r2_r3_but_not_matching_or_forced_play() -> None:
    lifted = 0
    for seed in range(12):
        record = selfplay(seed)
        verdict = adjudicate(record)
        assert verdict["valid"]
        first = verdict["endgame_from"]
        assert first == 45  # two players: 12 tiles in hands, the 44th placement empties the bag
        board = Board()
        for number, p in enumerate(record["placements"], 1):
            if number == 1:
                board.set_origin(p["q"], p["r"])
            cell = board.key(p["q"], p["r"])
            word = WORDS[p["tile"]][p["rotation"]]
            if number > 1:
                assert not board.mismatches(cell, word)
            if number >= first and board.breach(cell, word) is not None:
                lifted += 1
            board.place(cell, p["tile"], p["rotation"])
    assert lifted > 0


def test_turns_count_the_examples() -> None:
    assert adjudicate(example("two-player"))["turns"] == 20
    assert adjudicate(example("pairs"))["turns"] == 22


def test_forced_play_comes_before_four_sided_space() -> None:
    # Seat 0 must fill (-1, 0) but plays right next to it: both FORCED_PLAY_REQUIRED and R2.
    record = flower_for_seat_0()
    board = board_of(record)
    hand = [26, 23, 29, 37, 38, 39]
    beside = [(-1, -1), (-2, 1), (-2, 0)]
    move = next(
        (tile, cell, k) for tile in hand for cell in beside for k in rotations(board, cell, tile)
    )
    tile, (q, r), k = move
    record["placements"].append({"player": 0, "tile": tile, "q": q, "r": r, "rotation": k})
    assert error(adjudicate(record)) == ("FORCED_PLAY_REQUIRED", 7, 0)
