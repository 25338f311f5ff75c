"""The game fingerprint (pure): the same game whatever the JSON's key order or whitespace."""

from __future__ import annotations

import copy
import json

from games.engine import jsonio, selfplay
from games.reports.fingerprint import game_fingerprint


def _reread(record: dict, **dump) -> dict:
    return jsonio.load(json.dumps(record, **dump).encode())


def test_key_order_whitespace_clock_and_event_do_not_change_the_game():
    record = selfplay(11, "2")
    shuffled = json.loads(json.dumps(record), object_pairs_hook=lambda p: dict(reversed(p)))
    shuffled["clock"] = [600, 700]
    shuffled["event"] = "club night"
    one = game_fingerprint(_reread(record), [3, 9])
    other = game_fingerprint(_reread(shuffled, indent=4, sort_keys=True), [3, 9])
    assert one == other and len(one) == 64


def test_players_hands_bag_and_placements_make_the_game():
    record = selfplay(11, "2")
    base = game_fingerprint(record, [3, 9])
    assert game_fingerprint(record, [9, 3]) != base
    moved = copy.deepcopy(record)
    moved["placements"][-1]["rotation"] = (moved["placements"][-1]["rotation"] + 1) % 6
    assert game_fingerprint(moved, [3, 9]) != base
    bag = copy.deepcopy(record)
    bag["bag"][0], bag["bag"][1] = bag["bag"][1], bag["bag"][0]
    assert game_fingerprint(bag, [3, 9]) != base
    colours = copy.deepcopy(record)
    colours["players"][0]["colour"], colours["players"][1]["colour"] = "green", "yellow"
    assert game_fingerprint(colours, [3, 9]) != base
