"""The forecasts' pieces for templates: a chance as people read it, a bracket box's line, and
an entrant's chances looked up by entry."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def chance(value: float | None) -> str:
    """0.62 → "62%" in the reader's way of writing a percentage; never a certain-looking 0 %
    or 100 % for what is only very likely ("<1%", ">99%")."""
    if value is None:
        return ""
    percent = round(100 * value)
    if percent == 0 and value > 0:
        shown = "<1"
    elif percent == 100 and value < 1:
        shown = ">99"
    else:
        shown = str(percent)
    return pgettext("a chance as a percentage", "%(percent)s%%") % {"percent": shown}


@register.inclusion_tag("tournaments/forecasts/_bout.html")
def bout_forecast(forecast, match) -> dict:
    """The line a bracket box shows under its two sides: each side's chance to win."""
    chances = forecast.matches.get(match.pk) if forecast is not None else None
    return {"chances": chances}


def _row(forecast, entry_id: int):
    if forecast is None:
        return None
    return next((row for row in forecast.entries if row.entry_id == entry_id), None)


@register.filter
def win_chance(forecast, entry_id: int) -> float | None:
    row = _row(forecast, entry_id)
    return row.win if row is not None else None


@register.filter
def qualify_chance(forecast, entry_id: int) -> float | None:
    row = _row(forecast, entry_id)
    return row.qualify if row is not None else None
