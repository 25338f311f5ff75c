"""Reading JSON documents defensively, and describing bad values safely in messages."""

from __future__ import annotations

import json
import math
from typing import Any


class JsonProblem(ValueError):
    """The input is not a JSON document the engine can read; the message says why."""


class _DuplicateKey(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return found


def _constant(name: str) -> Any:
    # Python's json accepts NaN and Infinity, which are not JSON.
    raise JsonProblem(f"{name} is not a JSON value")


def load(data: Any) -> Any:
    """Parse ``str`` or UTF-8 ``bytes`` as strict JSON; anything else is taken as parsed already.

    Strict means: no NaN or Infinity, no duplicate keys in an object (which value would count
    would be a guess). Every way of failing becomes a ``JsonProblem`` with a readable message.
    """
    if isinstance(data, bytes | bytearray | memoryview):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonProblem(f"the document is not UTF-8 text (byte {exc.start})") from None
    elif isinstance(data, str):
        text = data
    else:
        return data
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark is harmless; editors on some systems add one
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except JsonProblem:
        raise
    except _DuplicateKey as exc:
        raise JsonProblem(f"the key {describe(exc.args[0])} appears twice in one object") from None
    except json.JSONDecodeError as exc:
        raise JsonProblem(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise JsonProblem("the JSON is nested too deeply") from None
    except ValueError:
        # Python refuses to convert integers of more than 4300 digits.
        raise JsonProblem("the JSON holds a number too large to read") from None


def number(value: int) -> str:
    """An integer as text, even one too long for ``str()`` to convert."""
    if -(10**40) < value < 10**40:
        return str(value)
    return ("-" if value < 0 else "") + f"a {value.bit_length()}-bit number"


def describe(value: Any) -> str:
    """A short, always-safe description of a value for an error message."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return number(value)
    if type(value) is float:
        return repr(value) if math.isfinite(value) else "a non-finite number"
    if type(value) is str:
        shown = value if len(value) <= 40 else value[:37] + "..."
        return json.dumps(shown)
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"
