"""A feed's full address, as the profile page and the API show it."""

from __future__ import annotations

from django.urls import reverse

from players.models import CalendarFeed


def feed_url(request, feed: CalendarFeed | None) -> str | None:
    """The feed's full address (scheme and host as the request came), None without a feed."""
    if feed is None:
        return None
    return request.build_absolute_uri(reverse("player-calendar", args=[feed.token]))
