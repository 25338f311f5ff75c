"""The details of a ratings audit line in words: what each stored key means, in the reader's
language, and its value as people write it (names for tables, the reader's decimal mark).

The audit stores details as data (`{"event": 4, "games": 25, "anchor_shift": 3.75}`) so that it
can be read by programs and re-read in any language; this is the one place that turns it into
a line a person reads. An unknown key is shown as stored, so a new detail is never hidden.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ratings.models import RatingSystem

LABELS = {
    "event": _("event"),
    "game": _("game"),
    "games": _("games"),
    "players": _("players"),
    "changes": _("rating changes"),
    "anchor_shift": _("pool shift"),
    "compensation": _("compensating change"),
    "compensations": _("compensating changes"),
    "recalculated": _("changes recalculated"),
    "corrected": _("steps corrected"),
    "seconds": _("seconds"),
    "system": _("table"),
    "systems": _("tables"),
    "tables": _("tables"),
    "before": _("before"),
    "after": _("after"),
    "series": _("series"),
    "reverted": _("games reverted"),
    "reviews_closed": _("reviews closed"),
    "lobby": _("lobby ranking"),
    "status": _("status"),
}
_SYSTEMS = dict(RatingSystem.choices)


def _value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, float):
        return number_format(round(value, 2), 2)
    if isinstance(value, str):
        return str(_SYSTEMS.get(value, value))
    if isinstance(value, list | tuple):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value) and len(value) > 5:
            return ngettext("%(count)s item", "%(count)s items", len(value)) % {"count": len(value)}
        return ", ".join(_value(key, v) for v in value)
    if isinstance(value, dict):
        return details_text(value)
    return str(value)


def details_text(details: Any, *, skip: set[str] | frozenset[str] = frozenset()) -> str:
    """`{"games": 25, "anchor_shift": 3.75}` → "games: 25 · pool shift: 3,75" (in Hungarian)."""
    if not isinstance(details, dict):
        return "" if details in (None, "", {}) else str(details)
    return " · ".join(
        f"{LABELS.get(key, key)}: {_value(key, value)}"
        for key, value in details.items()
        if key not in skip
    )
