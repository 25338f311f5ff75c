"""Per-object roles: organisers manage their own championships; controllers rule on disputes."""

from __future__ import annotations

from players.models import Player
from players.roles import is_admin, is_organiser, player_of
from players.types import User
from tournaments.models import Championship, Entry, Match


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


def speaks_for_age(user: User, player: Player) -> bool:
    """Who may know whether the player meets a junior event's age limit, i.e. be answered from
    their private date of birth: the player, staff, and the organiser who entered a player
    without an account (they gave the date of birth, and act for that player until it is
    claimed)."""
    if not (user and user.is_authenticated):
        return False
    if is_admin(user):
        return True
    own = player_of(user)
    if own is not None and own.pk == player.pk:
        return True
    return player.user_id is None and player.created_by_id == user.pk and is_organiser(user)


def acts_for_entry(user: User, entry: Entry) -> bool:
    """The entry's player, either player of a pair, or a team's captain, deputy or player."""
    own = player_of(user)
    if own is None:
        return False
    if entry.team_id is not None and own.pk in (entry.team.captain_id, entry.team.deputy_id):
        return True
    return own.pk in entry.members()


def leads_entry(user: User, entry: Entry) -> bool:
    """Who speaks for the entry: its player, either partner, or a team's captain or deputy
    (a team's other players play for it but do not decide for it)."""
    own = player_of(user)
    if own is None:
        return False
    if entry.team_id is not None:
        return own.pk in (entry.team.captain_id, entry.team.deputy_id)
    return own.pk in entry.members()


def match_side_of(user: User, match: Match) -> int | None:
    """0 or 1 if the user plays in (or, for a team, captains) a side of this match, else None."""
    own = player_of(user)
    if own is None:
        return None
    for side, entry in ((0, match.entry_a), (1, match.entry_b)):
        if entry is not None and acts_for_entry(user, entry):
            return side
    return None


def judges_match(user: User, match: Match) -> bool:
    """Who decides a match or a table (a ruling, a time penalty for either side): the
    championship's organisers and controllers, except one who plays in it (or captains a side
    of it), who is a party; staff always (issue 26: nobody judges their own game)."""
    if not can_rule(user, match.event.championship):
        return False
    return is_admin(user) or match_side_of(user, match) is None
