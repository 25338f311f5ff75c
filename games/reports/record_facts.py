"""What a valid record says of its game besides the verdict: the match it was submitted for, and
when it was played. Read by filing one record (`filing`) and many at once (`batch`), and by the
Game row a standing record makes (`results`)."""

from __future__ import annotations

import datetime as dt

from games.engine import parse_played_at


def match_id_of(extensions: dict) -> int | None:
    """The match a record or score sheet was submitted for (its `match` extension), if any."""
    value = extensions.get("match")
    return value if isinstance(value, int) else None


def played_at_of(document: dict, fallback: dt.datetime) -> dt.datetime:
    """The record's own time (the engine accepted it, so it is in range), else its arrival."""
    if "played_at" not in document:
        return fallback
    return parse_played_at(document["played_at"])
