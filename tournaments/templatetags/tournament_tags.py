"""Template tags for other apps' pages (the player page's championship section)."""

from __future__ import annotations

from django import template

from tournaments import selectors

register = template.Library()


@register.simple_tag
def player_entries(player) -> list:
    """The player's entries in published championships, newest first."""
    return list(selectors.entries_of_player(player.pk))
