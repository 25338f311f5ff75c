"""Filters that turn stored codes of championship rows into the words people read."""

from __future__ import annotations

from django import template

from tournaments.pages import words

register = template.Library()


@register.filter
def seeding_basis(code: str) -> str:
    """How an entry was seeded: "tournament Elo", "organiser", ... ("" when not seeded)."""
    return str(words.SEEDING_BASIS.get(code, ""))
