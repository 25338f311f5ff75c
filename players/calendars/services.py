"""Writes of calendar feeds: a player makes a new private address (which replaces the old one)
or turns theirs off. Only the player themselves: the address shows their schedule."""

from __future__ import annotations

import secrets

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import CalendarFeed, Player
from players.roles import player_of
from players.types import User

# 32 random bytes, 43 characters of the URL-safe alphabet: 256 bits, which no one guesses.
TOKEN_BYTES = 32


def _own_player(user: User) -> Player:
    player = player_of(user)
    if player is None:
        raise PermissionDenied(_("Only a player has a calendar of their matches."))
    return player


def calendar_feed_renew(*, user: User) -> CalendarFeed:
    """A new private address for the user's own calendar; the old one stops working at once.

    `update_or_create` locks the row (or, for a first address, lets the unique player decide
    between two at once), so each renewal leaves exactly one address: the last one stands."""
    player = _own_player(user)
    feed, _created = CalendarFeed.objects.update_or_create(
        player=player,
        defaults={"token": secrets.token_urlsafe(TOKEN_BYTES), "created": timezone.now()},
    )
    return feed


def calendar_feed_revoke(*, user: User) -> bool:
    """Turn the user's calendar address off; whether there was one."""
    player = _own_player(user)
    return CalendarFeed.objects.filter(player=player).delete()[0] > 0
