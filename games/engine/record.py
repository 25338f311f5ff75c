"""Checking a ``tantrix-game/1`` document and turning it into plain, trusted data.

Every rejection names the field (``players[2].colour``, ``placements[14].rotation``) and what was
expected, so that the person who wrote the record can fix it. Booleans are not integers here,
even though Python says ``True == 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .errors import MalformedRecord
from .jsonio import JsonProblem, describe, load
from .tables import HAND_SIZE, NAME_BIT, ROTATIONS, TILE_COUNT

FORMAT = "tantrix-game/1"
REQUIRED_KEYS = ("format", "players", "hands", "bag", "placements", "end")
OPTIONAL_KEYS = ("clock", "claimed_scores", "event", "played_at")
PLAYER_KEYS = frozenset({"name", "colour"})
PLACEMENT_KEYS = frozenset({"player", "tile", "q", "r", "rotation"})
END_REASONS = ("completed", "deadlock", "resigned", "time")
# A loop of all 56 tiles would score 112; nothing can score more.
MAX_SCORE = 2 * TILE_COUNT


@dataclass(frozen=True, slots=True)
class Placement:
    player: int
    tile: int
    q: int
    r: int
    rotation: int


@dataclass(frozen=True, slots=True)
class Record:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    pairs: bool
    hands: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    placements: tuple[Placement, ...]
    end_reason: str
    end_player: int | None
    claimed_scores: tuple[int, ...] | None

    @property
    def seats(self) -> int:
        return len(self.names)


def _fail(message: str) -> MalformedRecord:
    return MalformedRecord(message)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _int_in(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _list(value: Any, path: str) -> list[Any]:
    if type(value) is not list:
        raise _fail(f"{path}: expected a list, got {describe(value)}")
    return value


def _object(value: Any, path: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise _fail(f"{path}: expected an object, got {describe(value)}")
    return value


def _keys(value: dict[str, Any], path: str, allowed: frozenset[str], required: tuple[str, ...]):
    for key in value:
        if key not in allowed:
            raise _fail(f"{path}: unknown key {describe(key)}")
    for key in required:
        if key not in value:
            raise _fail(f"{path}: the key {describe(key)} is missing")


def parse_record(data: Any) -> Record:
    """Check a record (JSON text, UTF-8 bytes or parsed data); raise ``MalformedRecord``."""
    try:
        doc = load(data)
    except JsonProblem as exc:
        raise _fail(str(exc)) from None
    if type(doc) is not dict:
        raise _fail(f"the record must be a JSON object, got {describe(doc)}")
    _keys(doc, "record", frozenset(REQUIRED_KEYS + OPTIONAL_KEYS), ())
    for key in REQUIRED_KEYS:
        if key not in doc:
            raise _fail(f"{key}: required, missing")
    if doc["format"] != FORMAT or type(doc["format"]) is not str:
        raise _fail(f"format: expected {describe(FORMAT)}, got {describe(doc['format'])}")

    names, colours, pairs = _players(doc["players"])
    seats = len(names)
    hands = _hands(doc["hands"], seats)
    bag = _bag(doc["bag"], seats)
    _tile_set(hands, bag)
    placements = _placements(doc["placements"], seats)
    end_reason, end_player = _end(doc["end"], seats)
    if "clock" in doc:
        _clock(doc["clock"], seats)
    claimed = _claimed(doc["claimed_scores"], seats) if "claimed_scores" in doc else None
    if "event" in doc and type(doc["event"]) is not str:
        raise _fail(f"event: expected a string, got {describe(doc['event'])}")
    if "played_at" in doc:
        _played_at(doc["played_at"])
    return Record(
        names=names,
        colours=colours,
        pairs=pairs,
        hands=hands,
        bag=bag,
        placements=placements,
        end_reason=end_reason,
        end_player=end_player,
        claimed_scores=claimed,
    )


def _players(value: Any) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    players = _list(value, "players")
    if not 2 <= len(players) <= 4:
        raise _fail(f"players: expected 2, 3 or 4 players, got {len(players)}")
    names: list[str] = []
    colours: list[str] = []
    for seat, player in enumerate(players):
        path = f"players[{seat}]"
        entry = _object(player, path)
        _keys(entry, path, PLAYER_KEYS, ("name", "colour"))
        name = entry["name"]
        if type(name) is not str or not name.strip():
            raise _fail(f"{path}.name: expected a non-empty string, got {describe(name)}")
        colour = entry["colour"]
        if type(colour) is not str or colour not in NAME_BIT:
            raise _fail(
                f"{path}.colour: expected one of red, yellow, blue, green, got {describe(colour)}"
            )
        names.append(name)
        colours.append(colour)
    pairs = (
        len(colours) == 4
        and colours[0] == colours[2]
        and colours[1] == colours[3]
        and colours[0] != colours[1]
    )
    if not pairs and len(set(colours)) != len(colours):
        if len(colours) == 4:
            raise _fail(
                "players: with four players either all colours differ or seats 0 and 2 share "
                "one colour and seats 1 and 3 another (pairs)"
            )
        raise _fail("players: two or three players may not share a colour")
    return tuple(names), tuple(colours), pairs


def _tile(value: Any, path: str) -> int:
    if not _int_in(value, 1, TILE_COUNT):
        raise _fail(f"{path}: expected a tile number 1..{TILE_COUNT}, got {describe(value)}")
    return value


def _hands(value: Any, seats: int) -> tuple[tuple[int, ...], ...]:
    hands = _list(value, "hands")
    if len(hands) != seats:
        raise _fail(f"hands: expected one hand per player ({seats}), got {len(hands)}")
    result: list[tuple[int, ...]] = []
    for seat, hand in enumerate(hands):
        tiles = _list(hand, f"hands[{seat}]")
        if len(tiles) != HAND_SIZE:
            raise _fail(f"hands[{seat}]: expected {HAND_SIZE} tiles, got {len(tiles)}")
        result.append(tuple(_tile(tile, f"hands[{seat}][{i}]") for i, tile in enumerate(tiles)))
    return tuple(result)


def _bag(value: Any, seats: int) -> tuple[int, ...]:
    bag = _list(value, "bag")
    expected = TILE_COUNT - HAND_SIZE * seats
    if len(bag) != expected:
        raise _fail(
            f"bag: expected the other {expected} tiles (56 less {seats} hands of 6), got {len(bag)}"
        )
    return tuple(_tile(tile, f"bag[{i}]") for i, tile in enumerate(bag))


def _tile_set(hands: tuple[tuple[int, ...], ...], bag: tuple[int, ...]) -> None:
    where: dict[int, str] = {}
    spots = [
        (tile, f"hands[{seat}][{i}]")
        for seat, hand in enumerate(hands)
        for i, tile in enumerate(hand)
    ]
    spots += [(tile, f"bag[{i}]") for i, tile in enumerate(bag)]
    for tile, spot in spots:
        if tile in where:
            raise _fail(f"{spot}: tile {tile} appears twice (also at {where[tile]})")
        where[tile] = spot
    # With no duplicates and the right count, every tile 1..56 is present exactly once.


def _placements(value: Any, seats: int) -> tuple[Placement, ...]:
    placements = _list(value, "placements")
    if len(placements) > TILE_COUNT:
        raise _fail(
            f"placements: at most {TILE_COUNT} placements are possible, got {len(placements)}"
        )
    result: list[Placement] = []
    for i, item in enumerate(placements):
        path = f"placements[{i}]"
        if type(item) is not dict:
            raise _fail(f"{path}: expected an object, got {describe(item)}")
        if item.keys() != PLACEMENT_KEYS:
            _keys(item, path, PLACEMENT_KEYS, ("player", "tile", "q", "r", "rotation"))
        player = item["player"]
        tile = item["tile"]
        q = item["q"]
        r = item["r"]
        rotation = item["rotation"]
        if not _int_in(player, 0, seats - 1):
            raise _fail(f"{path}.player: expected a seat 0..{seats - 1}, got {describe(player)}")
        if not _int_in(tile, 1, TILE_COUNT):
            raise _fail(f"{path}.tile: expected a tile number 1..56, got {describe(tile)}")
        if not _is_int(q):
            raise _fail(f"{path}.q: expected an integer coordinate, got {describe(q)}")
        if not _is_int(r):
            raise _fail(f"{path}.r: expected an integer coordinate, got {describe(r)}")
        if not _int_in(rotation, 0, ROTATIONS - 1):
            raise _fail(f"{path}.rotation: expected an integer 0..5, got {describe(rotation)}")
        result.append(Placement(player, tile, q, r, rotation))
    return tuple(result)


def _end(value: Any, seats: int) -> tuple[str, int | None]:
    end = _object(value, "end")
    _keys(end, "end", frozenset({"reason", "player"}), ("reason",))
    reason = end["reason"]
    if type(reason) is not str or reason not in END_REASONS:
        raise _fail(
            f"end.reason: expected one of completed, deadlock, resigned, time, "
            f"got {describe(reason)}"
        )
    if reason in ("resigned", "time"):
        if "player" not in end:
            raise _fail(f"end.player: required when end.reason is {reason}, missing")
        player = end["player"]
        if not _int_in(player, 0, seats - 1):
            raise _fail(f"end.player: expected a seat 0..{seats - 1}, got {describe(player)}")
        return reason, player
    if "player" in end:
        raise _fail(f"end.player: only for reason resigned or time, not {reason}")
    return reason, None


def _clock(value: Any, seats: int) -> None:
    clock = _list(value, "clock")
    if len(clock) != seats:
        raise _fail(f"clock: expected one entry per player ({seats}), got {len(clock)}")
    for seat, used in enumerate(clock):
        ok = (type(used) is int and used >= 0) or (
            type(used) is float and math.isfinite(used) and used >= 0
        )
        if not ok:
            raise _fail(f"clock[{seat}]: expected seconds used (>= 0), got {describe(used)}")


def _claimed(value: Any, seats: int) -> tuple[int, ...]:
    claimed = _list(value, "claimed_scores")
    if len(claimed) != seats:
        raise _fail(f"claimed_scores: expected one score per player ({seats}), got {len(claimed)}")
    for seat, score in enumerate(claimed):
        if not _int_in(score, 0, MAX_SCORE):
            raise _fail(
                f"claimed_scores[{seat}]: expected an integer 0..{MAX_SCORE}, got {describe(score)}"
            )
    return tuple(claimed)


# Tantrix dates from 1987; a record's time must also survive conversion to UTC and storage.
PLAYED_AT_EARLIEST = datetime(1987, 1, 1, tzinfo=UTC)
PLAYED_AT_LATEST = datetime(2200, 12, 31, 23, 59, 59, tzinfo=UTC)


def parse_played_at(value: Any) -> datetime:
    """``played_at`` as an aware UTC datetime (no offset means UTC); raise ``MalformedRecord``."""
    if type(value) is not str:
        raise _fail(f"played_at: expected an ISO 8601 date and time, got {describe(value)}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _fail(
            f"played_at: expected an ISO 8601 date and time, got {describe(value)}"
        ) from None
    try:
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except OverflowError:
        moment = None
    if moment is None or not PLAYED_AT_EARLIEST <= moment <= PLAYED_AT_LATEST:
        raise _fail(
            f"played_at: {describe(value)} is outside the years "
            f"{PLAYED_AT_EARLIEST.year}..{PLAYED_AT_LATEST.year} (UTC)"
        )
    return moment


def _played_at(value: Any) -> None:
    parse_played_at(value)
