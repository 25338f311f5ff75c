"""The player page's ratings section reads its data here: the players app only includes the
template (see RatingsConfig.player_page_sections), it never imports ratings."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import formats

from ratings import selectors
from ratings.notes import note_shown
from ratings.staff.audit_words import details_text

register = template.Library()


@register.filter
def period_month(period: str) -> str:
    """A monthly table's period, stored "2026-12", as the reader writes a month: "December
    2026", "2026. december", "декабрь 2026 г." (YEAR_MONTH_FORMAT)."""
    try:
        year, month = (int(part) for part in str(period).split("-"))
        return formats.date_format(dt.date(year, month, 1), "YEAR_MONTH_FORMAT")
    except ValueError:
        return period


@register.filter
def rating_note(note: str) -> str:
    """A stored note, translated when the ratings wrote it themselves (ratings/notes.py)."""
    return note_shown(note or "")


@register.filter
def audit_details(details, named: str = "") -> str:
    """A ratings audit line's details in words (ratings/staff/audit_words.py), leaving out the keys
    the page already names (comma-separated, e.g. "event")."""
    return details_text(details, skip=set(named.split(",")) if named else set())


@register.simple_tag
def player_rating_summary(player) -> dict:
    return {
        "ratings": selectors.player_ratings(player_id=player.pk),
        "titles": list(selectors.player_titles(player_id=player.pk)),
    }
