"""Per-object roles: organisers manage their own championships; controllers rule on disputes."""

from __future__ import annotations

from players.roles import is_admin, is_organiser, player_of
from players.types import User
from tournaments.models import Championship, Match


def can_manage(user: User, championship: Championship) -> bool:
    if not (user and user.is_authenticated):
        return False
    if is_admin(user):
        return True
    return championship.organisers.filter(pk=user.pk).exists()


def can_rule(user: User, championship: Championship) -> bool:
    if can_manage(user, championship):
        return True
    if not (user and user.is_authenticated):
        return False
    return championship.controllers.filter(pk=user.pk).exists()


def can_create_championship(user: User) -> bool:
    return is_organiser(user)


def can_see(user: User, championship: Championship) -> bool:
    """The public reads published championships only; staff of a championship see it always."""
    return championship.published or can_rule(user, championship)


def match_side_of(user: User, match: Match) -> int | None:
    """0 or 1 if the user plays in this match, else None."""
    own = player_of(user)
    if own is None:
        return None
    if match.entry_a_id and match.entry_a.player_id == own.pk:
        return 0
    if match.entry_b_id and match.entry_b.player_id == own.pk:
        return 1
    return None
