"""iCalendar text (RFC 5545) for subscribed calendars: a feed of events, nothing else.

Written by hand rather than with a library: a feed needs a handful of properties, and what
makes one valid for calendar programs is small and exact (CRLF line ends, lines folded at 75
octets without splitting a character, TEXT values escaped, times in UTC). The tests read every
feed back with the `icalendar` library, so the check does not share this code's mistakes
(docs/calendars.md says why). Imports nothing from Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

# RFC 5545 3.1: lines of at most 75 octets, continued on a line that starts with a space.
_LINE_OCTETS = 75


@dataclass(frozen=True)
class CalendarEvent:
    """One event of a feed. `uid` is stable for the same thing (a calendar program replaces its
    copy when the feed says something new under the same UID); `start` and `end` are aware
    datetimes; no `end` makes an event of no length, a moment (a deadline)."""

    uid: str
    start: dt.datetime
    summary: str
    url: str = ""
    description: str = ""
    end: dt.datetime | None = None


def escape_text(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks escaped."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def utc_stamp(moment: dt.datetime) -> str:
    """A DATE-TIME in UTC, the form every calendar program reads (19980119T070000Z)."""
    if moment.tzinfo is None:
        raise ValueError("calendar times must be aware datetimes")
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _uri(value: str) -> str:
    # A URI is not TEXT: it is not escaped, but it may not break the line it is on.
    if any(char in value for char in "\r\n"):
        raise ValueError("a calendar URL may not contain line breaks")
    return value


def fold(line: str) -> str:
    """The content line folded into lines of at most 75 octets, never inside a character."""
    encoded = line.encode("utf-8")
    if len(encoded) <= _LINE_OCTETS:
        return line
    parts: list[str] = []
    current, size, limit = [], 0, _LINE_OCTETS
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append("".join(current))
            current, size, limit = [], 0, _LINE_OCTETS - 1  # the leading space takes one
        current.append(char)
        size += width
    parts.append("".join(current))
    return "\r\n ".join(parts)


def _event_lines(event: CalendarEvent, stamp: str) -> list[str]:
    lines = [
        "BEGIN:VEVENT",
        f"UID:{escape_text(event.uid)}",
        f"DTSTAMP:{stamp}",
        f"DTSTART:{utc_stamp(event.start)}",
    ]
    if event.end is not None:
        if event.end <= event.start:
            raise ValueError("an event must end after it starts")
        lines.append(f"DTEND:{utc_stamp(event.end)}")
    lines.append(f"SUMMARY:{escape_text(event.summary)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape_text(event.description)}")
    if event.url:
        lines.append(f"URL:{_uri(event.url)}")
    lines.append("END:VEVENT")
    return lines


def calendar_text(
    *,
    name: str,
    events: Iterable[CalendarEvent],
    stamp: dt.datetime,
    product: str = "-//tantrix-tournaments//calendars//EN",
    refresh_hours: int = 1,
) -> str:
    """The whole feed: a VCALENDAR named `name` (shown by the programs that read
    X-WR-CALNAME) holding `events`, stamped `stamp` (DTSTAMP: when the feed was written), with
    a hint to read it again every `refresh_hours`."""
    when = utc_stamp(stamp)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{escape_text(product)}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
        f"REFRESH-INTERVAL;VALUE=DURATION:PT{refresh_hours}H",
        f"X-PUBLISHED-TTL:PT{refresh_hours}H",
    ]
    for event in events:
        lines.extend(_event_lines(event, when))
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
