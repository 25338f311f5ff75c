"""Time zones a person may choose to read the site's times in (a profile setting).

An empty choice means the site's own zone (settings.TIME_ZONE), so the default follows the
settings instead of being copied into every row. The names are the IANA database's
(`zoneinfo`), which is what `django.utils.timezone.activate` takes.
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    # Area/City names only: the database also carries legacy aliases (EST5EDT, Etc/GMT+3, ...)
    # that would only make the list longer and more confusing.
    return tuple(
        sorted(
            name
            for name in zoneinfo.available_timezones()
            if "/" in name and not name.startswith(("Etc/", "SystemV/"))
        )
        + ["UTC"]
    )


def zone_choices() -> list[tuple[str, str]]:
    site = _("The site's time zone (%(zone)s)") % {"zone": settings.TIME_ZONE}
    return [("", site), *((name, name.replace("_", " ")) for name in zone_names())]


def validate_time_zone(value: str) -> None:
    if value and value not in zone_names():
        raise ValidationError(_("%(value)s is not a time zone we know."), params={"value": value})


def zone_for(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone of a stored setting; None for the site's own (or a name no longer known)."""
    if not name or name not in zone_names():
        return None
    return zoneinfo.ZoneInfo(name)
