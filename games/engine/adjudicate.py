"""``adjudicate``: the fast replay of a ``tantrix-game/1`` record, with the literal one behind it.

Most records that reach the engine are complete, legal games, so this module is built to
accept those quickly and to hand everything else to ``literal`` (the engine as first written),
which writes the invalid verdict with its message. The fast path never decides that a record is
invalid: it either produces the valid verdict itself or defers. The property tests hold the two
to the same verdict on generated legal and illegal games (tests/engine/test_fast.py).

Where the time goes in the fast path, and why it is shaped this way (docs/rules.md, "Engine"):

- JSON: the C decoder builds the dicts; strictness about duplicate keys is kept by counting the
  keys in the text (a regex) against the keys parsed (a duplicate collapses two into one), and
  NaN/Infinity are refused by ``parse_constant``. A BOM or any doubt defers to the literal reader.
- Checking the document: the placements are read by ``itemgetter`` into tuples and checked by
  columns, all at C speed: types and small ranges by ``bytes()`` and ``array("q")`` (which take
  a bool for 0 or 1, so a text holding ``true`` or ``false``, and parsed data, are also checked
  by ``set(map(type, ...))``), the board's box by ``min``/``max``.
- The replay (``fastreplay``) is one loop over those tuples with the state in local variables:
  tiles are integers ``tile * 6 + rotation``, cells integers on a padded grid, tables are flat
  tuples (``fastboard``); no exceptions, objects or dicts are built per placement. Forced
  spaces are a dict (space: the tiles that fit it by colour) kept up to date by each placement,
  the R3 closure is extended incrementally and used only while the bag is not empty (inline,
  one pass over a placement's empty neighbours), and the search for a legal fill runs only when
  a hand holds a tile that fits some forced space by colour. Scores are counted at the end by
  walking each colour's paths once (``fastscore``).
- Cache misses more than bytecodes: in the bench (and in production) the fast replay runs
  after other work that has evicted its tables from the CPU's caches, and it then takes about
  a fifth longer than alone. A lookup in a large memo dict is a few misses (index, entry, the
  key compared, the value), so the replay keeps them few; fewer bytecodes that read the same
  memory gained nothing there (docs/rules.md, "Fourth pass" and "Fifth pass").
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import chain
from operator import itemgetter
from typing import Any

from . import fastboard as fb
from . import literal
from .errors import MalformedRecord
from .fastreplay import replay
from .literal import invalid
from .record import END_REASONS, FORMAT, MAX_SCORE, OPTIONAL_KEYS, REQUIRED_KEYS, parse_played_at
from .tables import NAME_BIT, TILE_COUNT

__all__ = ["adjudicate", "invalid"]

_TOP_KEYS = frozenset(REQUIRED_KEYS + OPTIONAL_KEYS)
_PLAYER_KEYS = {"name", "colour"}
_KEYS_IN_TEXT = re.compile(r'"\s*:')
_ROW = itemgetter("player", "tile", "q", "r", "rotation")
_ALL_TILES = bytes(range(1, TILE_COUNT + 1))
_ROTATIONS = bytes(range(6))


def _no_constant(name: str) -> Any:
    raise ValueError(name)


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def adjudicate(record: Any) -> dict[str, Any]:
    """Judge a ``tantrix-game/1`` record; return the verdict dict of game-record.md.

    ``record`` may be JSON text, UTF-8 bytes or already-parsed data. Never raises for any
    input: whatever is wrong with the record is reported in the verdict.
    """
    doc, keys, bools = _document(record)
    verdict = _judge(doc, keys, bools) if doc is not None else None
    return verdict if verdict is not None else literal.adjudicate(record)


def _document(record: Any) -> tuple[Any, int | None, bool]:
    """(the parsed document, the number of keys in its text or None when given parsed data,
    whether it may hold a bool).

    The document is None when the fast reader cannot be sure it equals the strict one.
    """
    if isinstance(record, bytes):
        try:
            text = record.decode("utf-8")
        except UnicodeDecodeError:
            return None, None, True
    elif isinstance(record, str):
        text = record
    else:
        return (record if type(record) is dict else None), None, True
    if text.startswith("\ufeff"):
        return None, None, True
    try:
        doc = _DECODER.decode(text)
    except (ValueError, RecursionError):
        return None, None, True
    if type(doc) is not dict:
        return None, None, True
    # true and false are the only way JSON text makes a bool (Python's True == 1): without
    # them, a value that bytes() or array() takes as an integer is one.
    bools = "true" in text or "false" in text
    if "\\" in text:
        return doc, len(_KEYS_IN_TEXT.findall(text)), bools
    # Without escapes every colon in the text is a key's or a string value's own: _judge takes
    # away the colons of the string values it accepts (names, event, played_at).
    return doc, text.count(":"), bools


def _judge(doc: dict[str, Any], keys: int | None, bools: bool = True) -> dict[str, Any] | None:
    """The verdict of a well-formed, legal record; None for anything else (the literal decides).

    ``keys`` counts the keys in the text (None for parsed data, where duplicates cannot exist):
    either the colons (when the text has no escapes, less those inside the string values) or
    the matches of a string followed by a colon (when it has escapes; an escaped quote before a
    colon inside a string can only add to it). A duplicate key can only lower the parsed count,
    so equal counts mean that no key was lost. ``bools``: the document may hold true or false,
    so the integers are checked by type (the C checks below take a bool for 0 or 1).
    """
    if not doc.keys() <= _TOP_KEYS or not doc.keys() >= set(REQUIRED_KEYS):
        return None
    if type(doc["format"]) is not str or doc["format"] != FORMAT:
        return None
    players = doc["players"]
    if type(players) is not list or not 2 <= len(players) <= 4:
        return None
    colours: list[str] = []
    for player in players:
        if type(player) is not dict or player.keys() != _PLAYER_KEYS:
            return None
        name, colour = player["name"], player["colour"]
        if type(name) is not str or not name.strip():
            return None
        if type(colour) is not str or colour not in NAME_BIT:
            return None
        colours.append(colour)
    seats = len(colours)
    pairs = (
        seats == 4
        and colours[0] == colours[2]
        and colours[1] == colours[3]
        and colours[0] != colours[1]
    )
    if not pairs and len(set(colours)) != seats:
        return None

    hands, bag = doc["hands"], doc["bag"]
    if type(hands) is not list or len(hands) != seats or type(bag) is not list:
        return None
    if set(map(type, hands)) != {list} or set(map(len, hands)) != {6}:
        return None
    tiles = [*chain.from_iterable(hands), *bag]
    if bools and set(map(type, tiles)) != {int}:
        return None
    try:
        # bytes() takes integers 0..255 only: any other value is a TypeError or ValueError.
        if bytes(sorted(tiles)) != _ALL_TILES:
            return None
    except (TypeError, ValueError):
        return None

    placements = doc["placements"]
    if type(placements) is not list or len(placements) > TILE_COUNT:
        return None
    if placements:
        if set(map(type, placements)) != {dict} or set(map(len, placements)) != {5}:
            return None
        try:
            rows = list(map(_ROW, placements))
        except KeyError:
            return None
        seat_col, tile_col, q_col, r_col, rot_col = zip(*rows, strict=True)
        if bools and set(map(type, chain(seat_col, tile_col, q_col, r_col, rot_col))) != {int}:
            return None
        # A seat other than the mover's, or a tile above 56, is not in the mover's hand: the
        # replay defers those to the literal one; a tile below 1 and a rotation out of range
        # would misread the tables. Types and ranges are checked in C, a column a call: bytes()
        # takes integers 0..255 only and array("q") 64-bit integers (a float, string, null,
        # list or object is a TypeError); set(map(type, ...)) over the 280 values took 4% of
        # the game.
        try:
            bytes(seat_col)
            tiles_in, turns_in = bytes(tile_col), bytes(rot_col)
            array("q", q_col)
            array("q", r_col)
        except (TypeError, ValueError, OverflowError):
            return None
        if 0 in tiles_in or turns_in.translate(None, _ROTATIONS):
            return None
        # A board wider than SPAN is not connected, which the literal replay words; within it
        # the cells go on the fast board's own small grid, placed by the box of the tiles.
        q_low, r_low = min(q_col), min(r_col)
        q_span, r_span = max(q_col) - q_low, max(r_col) - r_low
        if q_span > fb.SPAN or r_span > fb.SPAN:
            return None
        base = fb.base_of(q_low, r_low)
    else:
        rows = []
        base = q_span = r_span = 0

    end = doc["end"]
    if type(end) is not dict or not end.keys() <= {"reason", "player"} or "reason" not in end:
        return None
    reason = end["reason"]
    if type(reason) is not str or reason not in END_REASONS:
        return None
    loser = end.get("player")
    if reason in ("resigned", "time"):
        if type(loser) is not int or not 0 <= loser < seats:
            return None
    elif "player" in end:
        return None
    if "clock" in doc and not _clock_ok(doc["clock"], seats):
        return None
    claimed = doc.get("claimed_scores")
    if "claimed_scores" in doc and not _claimed_ok(claimed, seats):
        return None
    if "event" in doc and type(doc["event"]) is not str:
        return None
    if "played_at" in doc:
        try:
            parse_played_at(doc["played_at"])
        except MalformedRecord:
            return None

    if keys is not None:
        for player in players:
            keys -= player["name"].count(":")
        keys -= doc.get("event", "").count(":") + doc.get("played_at", "").count(":")
    if keys is not None and keys != len(doc) + 2 * seats + len(end) + 5 * len(rows):
        return None  # a duplicate key somewhere (or a string holding '":'): be strict

    bits = [NAME_BIT[colour] for colour in colours]
    outcome = replay(seats, hands, bag, rows, base, q_span, r_span, bits)
    if outcome is None:
        return None
    end_kind, scores, turns, endgame_from, lines = outcome
    if end_kind is None:
        if reason not in ("resigned", "time"):
            return None  # the game is not over: INCOMPLETE, in the literal's words
        end_kind = reason
    verdict: dict[str, Any] = {
        "valid": True,
        "scores": scores,
        "winner": _winner(end_kind, scores, seats, pairs, loser),
        "placements": len(rows),
        "turns": turns,
        "endgame_from": endgame_from,
        "end": end_kind,
        "lines": lines,
    }
    if claimed is not None:
        verdict["claimed_scores_match"] = claimed == scores
    return verdict


def _clock_ok(clock: Any, seats: int) -> bool:
    if type(clock) is not list or len(clock) != seats:
        return False
    for used in clock:
        kind = type(used)
        if kind is int:
            if used < 0:
                return False
        elif kind is not float or not 0 <= used < float("inf"):
            return False
    return True


def _claimed_ok(claimed: Any, seats: int) -> bool:
    if type(claimed) is not list or len(claimed) != seats:
        return False
    return all(type(score) is int and 0 <= score <= MAX_SCORE for score in claimed)


def _winner(end: str, scores: list[int], seats: int, pairs: bool, loser: int | None) -> int | None:
    """As literal.LiteralReplay.winner."""
    if end == "deadlock":
        return None
    if end in ("resigned", "time"):
        assert loser is not None
        if seats == 2:
            return 1 - loser
        if pairs:
            return 1 - loser % 2
        contenders = [seat for seat in range(seats) if seat != loser]
    else:
        contenders = [0, 1] if pairs else list(range(seats))
    top = max(scores[seat] for seat in contenders)
    leaders = [seat for seat in contenders if scores[seat] == top]
    return leaders[0] if len(leaders) == 1 else None
