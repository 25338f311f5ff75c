"""The roles of the site, derived from the user account.

public (anonymous) → player (a user linked to a Player) → organiser (member of the
"organisers" group: may create championships) → controller (named on a championship; rules on
its disputes) → admin (staff: reviews ratings). Controllers are per championship, so only
`is_controller_anywhere` lives here; per-object checks belong to the tournaments app.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from players.types import User

ORGANISERS_GROUP = "organisers"


def is_admin(user: User) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def is_organiser(user: User) -> bool:
    if not (user and user.is_authenticated):
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_is_organiser", None)
    if cached is None:
        cached = user.groups.filter(name=ORGANISERS_GROUP).exists()
        user._is_organiser = cached
    return cached


def player_of(user: User):
    """The Player linked to this user, or None."""
    if not (user and user.is_authenticated):
        return None
    try:
        return user.player
    except ObjectDoesNotExist:  # the reverse one-to-one's Player.DoesNotExist: no player
        return None


def is_controller_anywhere(user: User) -> bool:
    """Named as controller on at least one championship (the relation is owned by tournaments)."""
    if not (user and user.is_authenticated):
        return False
    controlled = getattr(user, "controlled_championships", None)
    return bool(controlled is not None and controlled.exists())


def may_submit_any_game(user: User) -> bool:
    """Only site staff may submit a casual game they did not play in.

    Organisers and controllers act for their own championships only: a match game they submit
    is vouched for by the `match` submission extension, which checks that championship.
    """
    return is_admin(user)
