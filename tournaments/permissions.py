"""Per-object roles: organisers manage their own championships; controllers rule on disputes.

`RULES` names the rules (a predicate and the words of its refusal); TournamentsConfig.ready
registers them (`tantrix_site.http.permissions`): views declare the one they need
(`permission_required("manage", lookup=...)`), pages ask the same registry for their `can_*`,
and the services' own checks (`services.access`) use the same predicates and words. Authority
over anything inside a championship is authority over that championship: a rule is asked of an
event, a round, a match, an entry or a team the same way (`championship_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from players.models import Player
from players.roles import is_admin, is_organiser, player_of
from players.types import User
from tournaments.models import Championship, Entry, Match, Team


def championship_of(obj: Any) -> Championship:
    """The championship an object belongs to (itself for a championship)."""
    if isinstance(obj, Championship):
        return obj
    if hasattr(obj, "championship"):  # an event, a team, a pair
        return obj.championship
    if hasattr(obj, "event"):  # a round, a match, an entry
        return obj.event.championship
    return obj.match.event.championship  # a table's result


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


def arranging_side(user: User, match: Match) -> int | None:
    """0 or 1 if the user speaks for a side of this match when arranging its time (issue 30):
    its player, either partner of a pair, a team's captain or deputy (`leads_entry`, as for a
    walkover claim); a team's other players read the arrangement but do not make it."""
    for side, entry in ((0, match.entry_a), (1, match.entry_b)):
        if entry is not None and leads_entry(user, entry):
            return side
    return None


def sees_arrangement(user: User, match: Match) -> bool:
    """Who reads a match's proposals, usual free times and no-show messages: whoever plays in
    it (a team's whole roster) and the championship's organisers and controllers."""
    return match_side_of(user, match) is not None or can_rule(user, match.event.championship)


def leads_team(user: User, team: Team) -> bool:
    """The team's captain or deputy."""
    own = player_of(user)
    return own is not None and own.pk in (team.captain_id, team.deputy_id)


# --- The named rules views declare and pages ask ------------------------------------------

MANAGE_REFUSAL = gettext_lazy("Only this championship's organisers may do that.")
RULE_REFUSAL = gettext_lazy("Only this championship's organisers and controllers may rule.")
# The words of refusals that several pages and endpoints declare (with a rule above).
STAFF_REFUSAL = gettext_lazy("Only this championship's organisers and controllers may do that.")
TEAMS_REFUSAL = gettext_lazy("Only this championship's organisers may create teams.")
CAPTAIN_REFUSAL = gettext_lazy("Only this championship's organisers may name the captain.")
DEADLINES_REFUSAL = gettext_lazy("Only this championship's organisers may set deadlines.")
PARTY_REFUSAL = gettext_lazy(
    "You take part in it (you play in it or reported it): another of this championship's "
    "controllers or organisers, or the site staff, decides it."
)


def judge_refusal(user: User, match: Match) -> Any:
    """Why a person may not decide a match: not one of its rulers, or a party to it."""
    return PARTY_REFUSAL if can_rule(user, match.event.championship) else RULE_REFUSAL


# name -> (who may, on an object of the championship; the words of the refusal, or how to
# find them for the person and the object)
RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "create_championship": (
        lambda user, _obj: can_create_championship(user),
        gettext_lazy("Only organisers may create championships."),
    ),
    "see": (lambda user, obj: can_see(user, championship_of(obj)), MANAGE_REFUSAL),
    "manage": (lambda user, obj: can_manage(user, championship_of(obj)), MANAGE_REFUSAL),
    "rule": (lambda user, obj: can_rule(user, championship_of(obj)), RULE_REFUSAL),
    "see_audit": (
        lambda user, obj: can_rule(user, championship_of(obj)),
        gettext_lazy("Only the championship's organisers and controllers."),
    ),
    "judge": (judges_match, judge_refusal),
    "claim_penalty": (
        lambda user, match: judges_match(user, match) or match_side_of(user, match) is not None,
        gettext_lazy("Only the match's players and its staff may claim a time penalty."),
    ),
    "withdraw_entry": (
        lambda user, entry: can_manage(user, championship_of(entry)) or leads_entry(user, entry),
        gettext_lazy("You may withdraw only your own entry."),
    ),
    "arrange": (
        lambda user, match: arranging_side(user, match) is not None,
        gettext_lazy(
            "Only the match's players (for a team, its captain or deputy) may arrange its time."
        ),
    ),
    "arrange_or_manage": (
        lambda user, match: arranging_side(user, match) is not None
        or can_manage(user, match.event.championship),
        gettext_lazy("Only the match's players and this championship's organisers may do that."),
    ),
    "see_arrangement": (
        sees_arrangement,
        gettext_lazy("Only the match's players and this championship's staff may see that."),
    ),
    "lead_team": (
        lambda user, team: can_manage(user, team.championship) or leads_team(user, team),
        gettext_lazy("Only the team's captain or deputy, or an organiser, may do that."),
    ),
}
