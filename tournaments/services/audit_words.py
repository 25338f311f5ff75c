"""The words the championship audit types describe themselves with (issue 27).

Each action is a registered type (`players.audit.registry.register_audit_type`), declared beside
the service that writes it: the shape of its details and `describe(details, names)`, which puts
an entry's details into words. `names` is what the audit page looked up for a whole page of
entries (`tournaments.pages.audit.AuditNames`: `entry(id)`, `match(id)`, `side(side)` of the
entry's match, `event(id)`), so a description costs no query of its own.

This module holds the small words several descriptions share, and `describe_plainly`, the
description of a type that has none of its own: its details as "Key: value", never a dict.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments.models import MatchStatus


def when_words(value: Any) -> str:
    """A stored ISO date and time in the reader's format and time zone ("none" for none)."""
    if not value:
        return _("none")
    try:
        moment = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return date_format(moment, get_format("DATETIME_FORMAT"))


def match_status_words(value: Any) -> str:
    try:
        return MatchStatus(value).label
    except ValueError:
        return str(value)


def yes_words(value: Any) -> str:
    return _("yes") if value in (True, "True", "true") else _("no")


# The fields a championship_update entry names, in words (an unknown one: its key, capitalised).
DETAIL_LABELS = {
    "name": pgettext_lazy("the name of a championship, an event or a team", "Name"),
    "year": gettext_lazy("Year"),
    "category": gettext_lazy("Category"),
    "published": gettext_lazy("Published"),
}


def key_value_words(key: Any, value: Any) -> str:
    label = DETAIL_LABELS.get(key) or str(key).replace("_", " ").capitalize()
    # Translators: one detail of an audit entry, "Published: yes".
    return _("%(label)s: %(value)s") % {"label": label, "value": value}


def describe_plainly(details: dict, names: Any) -> str:
    """Details as "Key: value" lines (lists and dicts left out): a type with no words of its own."""
    return "; ".join(
        key_value_words(k, v) for k, v in details.items() if not isinstance(v, dict | list)
    )
