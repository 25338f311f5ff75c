"""MALFORMED records, and garbage of every kind: a verdict always, an exception never."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ERROR_CODES, adjudicate, selfplay

BASE = selfplay(11)


def malformed(record) -> str:
    verdict = adjudicate(record)
    assert verdict == {
        "valid": False,
        "error": {
            "code": "MALFORMED",
            "placement": None,
            "player": None,
            "message": verdict["error"]["message"],
        },
    }
    return verdict["error"]["message"]


def changed(path: str, value=None, delete: bool = False, base=BASE) -> dict:
    record = copy.deepcopy(base)
    target = record
    parts = path.split(".")
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = parts[-1]
    key = int(last) if isinstance(target, list) else last
    if delete:
        del target[key]
    else:
        target[key] = value
    return record


def three_players() -> dict:
    return selfplay(5, "3")


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (changed("format", "tantrix-game/2"), 'format: expected "tantrix-game/1"'),
        (changed("format", delete=True), "format: required"),
        (changed("end", delete=True), "end: required"),
        (changed("surprise", 1), 'unknown key "surprise"'),
        (changed("players", []), "players: expected 2, 3 or 4 players"),
        (changed("players", "two"), "players: expected a list"),
        (changed("players.0.colour", "purple"), "players[0].colour: expected one of red"),
        (changed("players.1.colour", None), "players[1].colour"),
        (changed("players.1.name", ""), "players[1].name: expected a non-empty string"),
        (changed("players.0.rating", 5), 'players[0]: unknown key "rating"'),
        (changed("players.1.colour", BASE["players"][0]["colour"]), "may not share a colour"),
        (changed("players.2.colour", "purple", base=three_players()), "players[2].colour"),
        (changed("hands.0", [1, 2, 3]), "hands[0]: expected 6 tiles, got 3"),
        (changed("hands.1.2", 57), "hands[1][2]: expected a tile number 1..56, got 57"),
        (changed("hands.1.2", True), "hands[1][2]: expected a tile number 1..56, got true"),
        (changed("hands.1.2", 3.0), "hands[1][2]"),
        (changed("hands", [[1, 2, 3, 4, 5, 6]]), "hands: expected one hand per player"),
        (changed("bag.0", BASE["bag"][1]), "appears twice"),
        (changed("bag", BASE["bag"][:-1]), "bag: expected the other 44 tiles"),
        (changed("placements", {}), "placements: expected a list"),
        (changed("placements", [{}] * 57), "at most 56 placements"),
        (changed("placements.3", [1, 2]), "placements[3]: expected an object"),
        (changed("placements.14.rotation", 6), "placements[14].rotation: expected an integer 0..5"),
        (changed("placements.14.rotation", True), "placements[14].rotation"),
        (changed("placements.14.rotation", -1), "placements[14].rotation"),
        (changed("placements.2.tile", 0), "placements[2].tile: expected a tile number"),
        (changed("placements.2.player", 2), "placements[2].player: expected a seat 0..1"),
        (changed("placements.2.player", False), "placements[2].player"),
        (changed("placements.2.q", 1.5), "placements[2].q: expected an integer coordinate"),
        (changed("placements.2.r", "3"), "placements[2].r: expected an integer coordinate"),
        (changed("placements.2.r", None), "placements[2].r"),
        (changed("placements.2.flip", 0), 'placements[2]: unknown key "flip"'),
        (changed("placements.2.q", delete=True), 'placements[2]: the key "q" is missing'),
        (changed("end", "completed"), "end: expected an object"),
        (changed("end.reason", "draw"), "end.reason: expected one of completed"),
        (changed("end", {"reason": "resigned"}), "end.player: required when end.reason is"),
        (changed("end", {"reason": "time", "player": 2}), "end.player: expected a seat 0..1"),
        (changed("end", {"reason": "completed", "player": 0}), "end.player: only for reason"),
        (changed("clock", [10]), "clock: expected one entry per player"),
        (changed("clock", [10, -1]), "clock[1]: expected seconds used"),
        (changed("clock", [10, float("nan")]), "clock[1]"),
        (changed("clock", [10, True]), "clock[1]"),
        (changed("claimed_scores", [1, 2, 3]), "claimed_scores: expected one score per player"),
        (changed("claimed_scores", [1, 113]), "claimed_scores[1]: expected an integer 0..112"),
        (changed("event", 5), "event: expected a string"),
        (changed("played_at", "yesterday"), "played_at: expected an ISO 8601"),
    ],
)
def test_malformed_records_name_the_field(record, words: str) -> None:
    assert words in malformed(record)


def test_four_players_share_colours_only_as_pairs() -> None:
    record = selfplay(2, "4")
    colours = [p["colour"] for p in record["players"]]
    record["players"][1]["colour"] = colours[0]
    assert "pairs" in malformed(record)


def test_optional_fields_are_accepted() -> None:
    record = copy.deepcopy(BASE)
    record.update(clock=[811, 902.5], event="club night", played_at="2024-05-01T19:30:00+02:00")
    assert adjudicate(record)["valid"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2", "not valid JSON"),
        ('{"a": NaN}', "NaN is not a JSON value"),
        ('{"a": Infinity}', "Infinity is not a JSON value"),
        ('{"a": 1, "a": 2}', 'the key "a" appears twice'),
        ("1" * 5000, "too large"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("null", "must be a JSON object, got null"),
        ("[]", "must be a JSON object"),
        ('"tantrix"', "must be a JSON object"),
    ],
)
def test_unreadable_json_is_malformed(text: str, words: str) -> None:
    assert words in malformed(text)


def test_bytes_must_be_utf8_and_may_carry_a_bom() -> None:
    assert "not UTF-8" in malformed(b"\xff\xfe{}")
    text = json.dumps(BASE)
    assert adjudicate(b"\xef\xbb\xbf" + text.encode())["valid"]


@pytest.mark.parametrize(
    "value",
    [None, 0, 1.5, True, [], [[]], {"format": None}, float("nan"), object(), set()]
    + [pytest.param(10**5000, id="huge-int")],
)
def test_odd_python_values_are_malformed(value) -> None:
    malformed(value)


def test_huge_integers_anywhere_are_safe() -> None:
    huge = 10**5000
    for path in ("placements.0.q", "placements.5.r", "placements.1.tile", "claimed_scores.0"):
        verdict = adjudicate(changed(path, huge))
        assert verdict["valid"] is False
        json.dumps(verdict)  # the message must be printable


def json_values():
    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=20,
    )


@settings(max_examples=60, deadline=None)
@given(json_values())
def test_any_json_value_gives_a_verdict(value) -> None:
    verdict = adjudicate(value)
    assert verdict["valid"] is False and verdict["error"]["code"] == "MALFORMED"
    try:
        text = json.dumps(value)
    except ValueError:
        return
    assert adjudicate(text)["error"]["code"] == "MALFORMED"


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_a_verdict(data: bytes) -> None:
    assert adjudicate(data)["error"]["code"] == "MALFORMED"


FIELDS = st.sampled_from(["player", "tile", "q", "r", "rotation"])
VALUES = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(),
    st.text(max_size=3),
    st.just([]),
)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from(["2", "3", "4", "pairs"]),
    index=st.integers(0, 55),
    field=FIELDS,
    value=VALUES,
)
def test_a_mutated_placement_gives_a_valid_verdict_or_a_coded_error(
    seed, players, index, field, value
) -> None:
    record = selfplay(seed, players)
    placement = record["placements"][index % len(record["placements"])]
    placement[field] = value
    verdict = adjudicate(record)
    if verdict["valid"]:
        assert set(verdict) >= {"scores", "winner", "placements", "turns", "end", "lines"}
    else:
        assert verdict["error"]["code"] in ERROR_CODES
        assert verdict["error"]["message"]
    json.dumps(verdict)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    cut=st.integers(0, 56),
    swap=st.tuples(st.integers(0, 55), st.integers(0, 55)),
    reason=st.sampled_from(["completed", "deadlock", "resigned", "time"]),
)
def test_reordered_or_cut_records_give_a_valid_verdict_or_a_coded_error(
    seed, cut, swap, reason
) -> None:
    record = selfplay(seed)
    moves = record["placements"]
    i, j = (n % len(moves) for n in swap)
    moves[i], moves[j] = moves[j], moves[i]
    del moves[cut:]
    record["end"] = {"reason": reason}
    if reason in ("resigned", "time"):
        record["end"]["player"] = seed % 2
    verdict = adjudicate(record)
    assert verdict["valid"] or verdict["error"]["code"] in ERROR_CODES
