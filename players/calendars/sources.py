"""What fills a player's calendar: the apps that know about matches register a source here (in
their AppConfig.ready), a function of the player that returns the events of their feed.

players owns the feed's address and its text but knows no match (the imports point down); the
tournaments app registers its agreed matches and round deadlines
(`tournaments.calendars.feeds.player_calendar_events`).
"""

from __future__ import annotations

from collections.abc import Callable

from players.calendars.ical import CalendarEvent
from players.models import Player

# A source: the player, and a function that turns a site path into a full address.
CalendarSource = Callable[[Player, Callable[[str], str]], list[CalendarEvent]]

_SOURCES: list[CalendarSource] = []


def register_calendar_source(source: CalendarSource) -> None:
    """Add `source` to every player's feed (idempotent for the same function)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def player_events(player: Player, absolute: Callable[[str], str]) -> list[CalendarEvent]:
    """Every registered source's events for this player, earliest first."""
    events = [event for source in _SOURCES for event in source(player, absolute)]
    return sorted(events, key=lambda event: (event.start, event.uid))
