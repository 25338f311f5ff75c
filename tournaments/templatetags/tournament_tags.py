"""Template tags: the player page's championship section, and where a side's name links to."""

from __future__ import annotations

from django import template

from tournaments import selectors
from tournaments.format_words import tps_text
from tournaments.pages import links

register = template.Library()


@register.simple_tag
def player_entries(player) -> list:
    """The player's entries in published championships, newest first."""
    return list(selectors.entries_of_player(player.pk))


@register.filter
def side_url(entry) -> str:
    """The page a side's name links to ("" for a pair)."""
    return links.side_url(entry)


@register.filter
def tps(value) -> str:
    """Tournament points with one decimal place, in the reader's number format."""
    return tps_text(value)
