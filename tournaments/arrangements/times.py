"""Time zones for arranging across continents: reading a moment written in a zone, and showing
a player's usual free times (times of day in their zone) in another reader's zone.

Plain functions of `zoneinfo` and `datetime`; the only Django they touch is the translation of
an unknown zone's message and the site's default zone.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from players.preferences.timezones import zone_names


def zone_named(name: str, *, field: str = "time_zone") -> zoneinfo.ZoneInfo:
    """The zone of an IANA name; an unknown one is a field error (400)."""
    if name not in zone_names():
        raise ValidationError({field: _("%(value)s is not a time zone we know.") % {"value": name}})
    return zoneinfo.ZoneInfo(name)


def site_zone() -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def moment_in(value: dt.datetime, zone: dt.tzinfo) -> dt.datetime:
    """An aware moment: a naive one is read as written in `zone`; an aware one is kept."""
    if timezone.is_aware(value):
        return value
    return value.replace(tzinfo=zone)


@dataclass(frozen=True)
class FreeTime:
    """A usual free time as a reader sees it: weekdays (0 = Monday) and times of day in the
    reader's zone; it may end on the next day."""

    weekday: int
    starts: dt.time
    end_weekday: int
    ends: dt.time


def free_time_for_reader(
    *,
    weekday: int,
    starts: dt.time,
    ends: dt.time,
    written_in: dt.tzinfo,
    reader: dt.tzinfo,
    today: dt.date,
) -> FreeTime:
    """A weekly free time written in one zone, as it falls in the reader's zone in the coming
    week (daylight saving makes the offset depend on the date, so the next occurrence is used)."""
    ahead = (weekday - today.weekday()) % 7
    day = today + dt.timedelta(days=ahead)
    start = dt.datetime.combine(day, starts, tzinfo=written_in).astimezone(reader)
    end = dt.datetime.combine(day, ends, tzinfo=written_in).astimezone(reader)
    return FreeTime(start.weekday(), start.time(), end.weekday(), end.time())
