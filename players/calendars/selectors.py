"""Reads of calendar feeds (the writes are `services`)."""

from __future__ import annotations

from players.models import CalendarFeed, Player


def calendar_feed_of(player: Player | None) -> CalendarFeed | None:
    """The player's feed, or None when they have none (or there is no player)."""
    if player is None:
        return None
    return CalendarFeed.objects.filter(player=player).first()


def feed_player(token: str) -> Player | None:
    """The player whose feed this token opens; None for a token that opens nothing (never
    made, replaced, turned off, or of a player whose account is gone or deactivated), which
    the feed answers with 404."""
    if not token or len(token) > CalendarFeed._meta.get_field("token").max_length:
        return None
    feed = (
        CalendarFeed.objects.select_related("player__user")
        .filter(token=token, player__user__is_active=True)
        .first()
    )
    return feed.player if feed is not None else None
