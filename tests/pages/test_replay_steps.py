"""The replay's plain data (games.engine.replay) and its drawing, without a database."""

from __future__ import annotations

import copy

from games.engine import adjudicate, selfplay
from games.engine.replay import replay
from games.replays.drawing import replay_svg
from tests.games.helpers import colour_mismatch_record


def test_a_valid_game_replays_every_placement_with_the_verdict():
    record = selfplay(3)
    result = replay(record)
    verdict = adjudicate(record)
    assert result is not None and result.illegal is None
    assert len(result.steps) == len(record["placements"]) == verdict["placements"]
    assert result.verdict["scores"] == verdict["scores"]
    endgames = [n for n, step in enumerate(result.steps, 1) if step.endgame]
    assert endgames == [verdict["endgame_from"]]
    assert result.start_hands == tuple(tuple(hand) for hand in record["hands"])


def test_hands_follow_each_placement_and_draw():
    record = selfplay(3)
    result = replay(record)
    bag = list(record["bag"])
    hands = [list(hand) for hand in record["hands"]]
    for step, placement in zip(result.steps, record["placements"], strict=True):
        hands[placement["player"]].remove(placement["tile"])
        if bag:
            hands[placement["player"]].append(bag.pop(0))
        assert [sorted(hand) for hand in step.hands] == [sorted(hand) for hand in hands]


def test_forced_placements_are_those_into_a_forced_space():
    result = replay(selfplay(3))
    assert any(step.forced for step in result.steps)
    assert not result.steps[0].forced and not result.steps[1].forced


def test_each_colours_scoring_cells_match_the_verdicts_lines():
    record = selfplay(7)
    result = replay(record)
    verdict = adjudicate(record)
    placed = {(step.q, step.r) for step in result.steps}
    for colour, line in verdict["lines"].items():
        mine = result.lines[colour]
        assert (mine["kind"], mine["tiles"]) == (line["kind"], line["tiles"])
        assert len(mine["cells"]) == line["tiles"]
        assert set(mine["cells"]) <= placed


def test_an_illegal_placement_ends_the_steps_and_is_described():
    record = colour_mismatch_record(["Ana", "Bela"])
    result = replay(record)
    assert result.illegal is not None
    assert result.illegal.number == 2 and result.illegal.code == "COLOUR_MISMATCH"
    assert len(result.steps) == 1
    assert result.lines == {}


def test_an_unreadable_record_has_no_replay():
    assert replay(b"not json") is None
    assert replay({"format": "tantrix-game/1"}) is None


def test_a_record_that_stops_early_replays_as_far_as_it_goes():
    record = copy.deepcopy(selfplay(3))
    record["placements"] = record["placements"][:10]
    result = replay(record)
    assert len(result.steps) == 10 and result.illegal is None
    assert result.verdict["error"]["code"] == "INCOMPLETE"


def test_the_drawing_tags_every_tile_with_its_placement():
    result = replay(selfplay(3))
    svg = str(replay_svg(result))
    assert svg.count('class="tile') == len(result.steps)
    assert 'data-step="1"' in svg and f'data-step="{len(result.steps)}"' in svg
    assert svg.count('class="tile forced"') == sum(step.forced for step in result.steps)
    assert "at-end" in svg and "best-" in svg


def test_the_drawing_marks_the_illegal_placement():
    result = replay(colour_mismatch_record(["Ana", "Bela"]))
    svg = str(replay_svg(result))
    assert 'class="tile illegal" data-step="2"' in svg and "illegal-mark" in svg
    assert "at-end" not in svg


def test_an_illegal_placement_far_away_is_not_drawn():
    record = copy.deepcopy(selfplay(3))
    record["placements"][1]["q"] = 10**400
    result = replay(record)
    assert result.illegal.code == "NOT_ADJACENT"
    assert "illegal" not in str(replay_svg(result))
