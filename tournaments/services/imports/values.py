"""The values of an event export, checked one by one before anything is written.

`document_check` walks the whole file (without recursion, so a deep file cannot overflow the
stack): nesting at most `MAX_DEPTH` deep, no NUL character in any text (PostgreSQL stores
none), integers within 64 bits, no NaN or infinity. `field_value` turns one JSON value into a
model field's Python value, checking it against the field's type, range, length and choices
(read from the model, so a new choice or a narrower column is checked without a change here):
dates and datetimes parsed (with their UTC offset), a record's body strict base64 and no larger
than the site takes. `JSON_SHAPES` checks each JSON column against the shape the site writes.

Each problem is a `ValueError` whose text says what is wrong; `checks` adds the path.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import math
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django_countries import countries as country_registry

from games.models import Game, GameRecord, GameReport, ReportedGame
from tournaments.formats import FormatError, tiebreaks
from tournaments.formats.teams import TEAM_TIEBREAKS
from tournaments.models import Event

MAX_DEPTH = 16  # the export's deepest value (a verdict's line of a colour) is 6 levels down
MAX_PROBLEMS = 50
MAX_TEXT = 20_000  # a text column with no length of its own (a reason, a message)
MAX_JSON_TEXT = 2_000  # a text inside a JSON field (a verdict's message)
MAX_SEATS = 4
_INT64 = 2**63


class EventImportError(ValueError):
    """An export refused: `problems` lists (path in the file, what is wrong)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {message}" for path, message in problems))


class Problems:
    """The problems found so far, at most `MAX_PROBLEMS` (a bad file is not listed whole)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        if len(self.found) < MAX_PROBLEMS:
            self.found.append((path, message))

    @property
    def full(self) -> bool:
        return len(self.found) >= MAX_PROBLEMS


def kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def shown(value: Any) -> str:
    text = f'"{value}"' if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- The whole document -------------------------------------------------------------------


def _walk(data: Any) -> Iterator[tuple[str, Any, int]]:
    """Every value with its path and depth, without recursion (a deep file cannot overflow)."""
    stack: list[tuple[str, Any, int]] = [("", data, 1)]
    while stack:
        path, value, depth = stack.pop()
        yield path, value, depth
        if depth > MAX_DEPTH:
            continue
        # Pushed in reverse, so that the values come out (and problems are listed) in file order.
        if isinstance(value, dict):
            stack.extend(
                (f"{path}.{k}" if path else str(k), v, depth + 1)
                for k, v in reversed(value.items())
            )
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", value[i], depth + 1) for i in reversed(range(len(value))))


def document_check(data: Any, problems: Problems) -> None:
    for path, value, depth in _walk(data):
        where = path or "the file"
        if depth > MAX_DEPTH:
            problems.add(where, f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(value, str) and "\x00" in value:
            problems.add(where, "contains a NUL character")
        elif isinstance(value, dict) and any("\x00" in str(k) for k in value):
            problems.add(where, "has a key with a NUL character")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _INT64:
            problems.add(where, "is a number too large to store")
        elif isinstance(value, float) and not math.isfinite(value):
            problems.add(where, "is not a finite number")
        elif not isinstance(value, dict | list | str | int | float | type(None)):
            problems.add(where, f"is not JSON data ({type(value).__name__})")
        if problems.full:
            return


# --- One field ------------------------------------------------------------------------------


def _plain(f: models.Field, value: Any) -> Any:
    """The field's Python value for a JSON value, or ValueError with what is wrong."""
    if isinstance(f, models.BooleanField):
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, not {kind(value)}")
        return value
    if isinstance(f, models.IntegerField | models.BigIntegerField):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number, not {kind(value)} {shown(value)}")
        return value
    if isinstance(f, models.DecimalField):
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ValueError(f"must be a decimal number written as text, not {kind(value)}")
        try:
            number = Decimal(str(value).strip())
        except InvalidOperation:
            raise ValueError(f"{shown(value)} is not a decimal number") from None
        if not number.is_finite():
            raise ValueError(f"{shown(value)} is not a decimal number")
        return number
    if isinstance(f, models.FloatField):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"must be a number, not {kind(value)}")
        return float(value)
    if isinstance(f, models.DateTimeField):
        if not isinstance(value, str):
            raise ValueError(f"must be a date and time as text, not {kind(value)}")
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{shown(value)} is not a date and time (ISO 8601)") from None
        if moment.tzinfo is None:
            raise ValueError(f"{shown(value)} has no UTC offset")
        return moment
    if isinstance(f, models.DateField):
        if not isinstance(value, str):
            raise ValueError(f"must be a date as text (YYYY-MM-DD), not {kind(value)}")
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{shown(value)} is not a date (YYYY-MM-DD)") from None
    if isinstance(f, models.UUIDField):
        if not isinstance(value, str):
            raise ValueError(f"must be a UUID as text, not {kind(value)}")
        try:
            return uuid.UUID(value)
        except ValueError:
            raise ValueError(f"{shown(value)} is not a UUID") from None
    if isinstance(f, models.BinaryField):
        return _base64(value)
    if isinstance(f, models.CharField | models.TextField):
        if not isinstance(value, str):
            raise ValueError(f"must be text, not {kind(value)}")
        limit = f.max_length or MAX_TEXT
        if len(value) > limit:
            raise ValueError(f"is {len(value)} characters long, longer than {limit}")
        return value
    raise ValueError(f"cannot be imported ({type(f).__name__})")  # a new kind of column


def _base64(value: Any) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"must be base64 text, not {kind(value)}")
    limit = settings.GAME_RECORD_MAX_BYTES
    if len(value) > (limit + 2) // 3 * 4:
        raise ValueError(f"holds more than the {limit} bytes a record may have")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("is not valid base64") from None


def field_value(f: models.Field, value: Any) -> Any:
    if value is None:
        if not f.null:
            raise ValueError("must not be null")
        return None
    result = _plain(f, value)
    if f.choices and not (result == "" and f.blank):
        allowed = [str(k) for k, _label in f.flatchoices]
        if str(result) not in allowed:
            listed = ", ".join(allowed[:12]) + (", ..." if len(allowed) > 12 else "")
            raise ValueError(f"{shown(value)} is not one of {listed}")
    if result == "" and not f.blank:
        raise ValueError("must not be empty")
    try:
        f.run_validators(result)  # ranges (the column's, and the model's own), digits
    except ValidationError as exc:
        words = " ".join(str(m) for m in exc.messages)
        raise ValueError(f"{shown(value)} is refused: {words}") from None
    return result


# --- JSON fields: the shapes the site writes ------------------------------------------------


def _list_of(value: Any, item: Callable[[Any], None], *, at_most: int | None = None) -> None:
    if not isinstance(value, list):
        raise ValueError(f"must be a list, not {kind(value)}")
    if at_most is not None and len(value) > at_most:
        raise ValueError(f"has {len(value)} items, more than {at_most}")
    for i, one in enumerate(value):
        try:
            item(one)
        except ValueError as exc:
            raise ValueError(f"item {i}: {exc}") from None


def _whole(low: int, high: int) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{shown(value)} is not a whole number from {low} to {high}")

    return check


def _object(value: Any, *, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, dict):
        raise ValueError(f"must be an object, not {kind(value)}")
    for key, one in value.items():
        if isinstance(one, str) and len(one) > MAX_JSON_TEXT:
            raise ValueError(f"{key}: longer than {MAX_JSON_TEXT} characters")


def _countries(value: Any) -> None:
    def check(code: Any) -> None:
        if not isinstance(code, str) or code not in country_registry:
            raise ValueError(f"{shown(code)} is not an ISO country code")

    _list_of(value, check, at_most=len(country_registry))


def _text(value: Any) -> None:
    if not isinstance(value, str):
        raise ValueError(f"must be text, not {kind(value)}")


def _criteria(value: Any) -> None:
    _list_of(value, _text, at_most=len(tiebreaks.CRITERIA))
    if value:
        try:
            tiebreaks.criteria_check(value)
        except FormatError as exc:
            raise ValueError(str(exc)) from None  # its English sentence


def _team_criteria(value: Any) -> None:
    def check(key: Any) -> None:
        if key not in TEAM_TIEBREAKS:
            raise ValueError(f"{shown(key)} is not one of {', '.join(TEAM_TIEBREAKS)}")

    _list_of(value, check, at_most=len(TEAM_TIEBREAKS))


def _placements(value: Any) -> None:
    keys = {"q": (-60, 60), "r": (-60, 60), "tile": (1, 56), "player": (0, 3), "rotation": (0, 5)}

    def check(one: Any) -> None:
        if not isinstance(one, dict) or set(one) != set(keys):
            raise ValueError(f"must be an object with {', '.join(keys)}")
        for key, (low, high) in keys.items():
            _whole(low, high)(one[key])

    _list_of(value, check, at_most=56)


def _verdict(value: Any) -> None:
    _object(value, nullable=True)
    if value is None:
        return
    if "valid" in value and not isinstance(value["valid"], bool):
        raise ValueError("valid: must be true or false")
    if "scores" in value:
        _list_of(value["scores"], _whole(0, 200), at_most=MAX_SEATS)
    if value.get("winner") is not None:
        _whole(0, MAX_SEATS - 1)(value["winner"])


def _minutes(value: Any) -> None:
    if value is not None:
        _list_of(value, lambda m: None if m is None else _whole(0, 10_000)(m), at_most=MAX_SEATS)


def _seat_players(value: Any) -> None:
    """Seat by seat, a player's id (resolved in the file with the other references) or null."""
    _list_of(value, lambda p: None if p is None else _whole(1, _INT64 - 1)(p), at_most=MAX_SEATS)


#: A check per JSON column of the exported models. The ids inside (seat players, the match of
#: extensions) are resolved in the file with the other references (`checks`).
JSON_SHAPES: dict[tuple[type[models.Model], str], Callable[[Any], None]] = {
    (Event, "countries"): _countries,
    (Event, "tiebreaks"): _criteria,
    (Event, "team_tiebreaks"): _team_criteria,
    (GameRecord, "seat_players"): _seat_players,
    (GameRecord, "extensions"): _object,
    (GameRecord, "verdict"): _verdict,
    (Game, "placements"): _placements,
    (Game, "clock"): lambda v: _object(v, nullable=True),
    (ReportedGame, "seat_players"): _seat_players,
    (ReportedGame, "extensions"): _object,
    (GameReport, "scores"): lambda v: _list_of(v, _whole(0, 200), at_most=MAX_SEATS),
    (GameReport, "minutes"): _minutes,
}
