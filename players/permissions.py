"""The players' named rules (issue 27: permissions declared once).

`RULES` names each rule (a predicate of the user and an object, and the words of its refusal);
PlayersConfig.ready registers them (`tantrix_site.http.permissions`): views declare the one
they need (`permission_required("edit_player", lookup=...)`), the API's permission classes and
the pages' `can_*` ask the same registry. The services keep their own checks with the same
predicates (`players.services`): they stay the authority.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from players.roles import is_admin, is_organiser
from players.services import can_edit_player, can_manage_claims, can_see_private
from players.types import User


def may_enter_players(user: User) -> bool:
    """Organisers and admins enter players who have no account."""
    return is_organiser(user) or is_admin(user)


# name -> (who may, on an object; the words of the refusal)
RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "enter_players": (
        lambda user, _obj: may_enter_players(user),
        gettext_lazy("Only organisers and admins may enter players."),
    ),
    "edit_player": (can_edit_player, gettext_lazy("You may edit only your own profile.")),
    "see_private": (can_see_private, gettext_lazy("You may edit only your own profile.")),
    "manage_claims": (
        can_manage_claims,
        gettext_lazy("Only staff and the organiser who entered this player may make a claim link."),
    ),
    "see_claim": (
        lambda user, claim: claim.requester_id == user.pk or can_manage_claims(user, claim.player),
        gettext_lazy("This claim request is not yours to see."),
    ),
    "manage_roles": (lambda user, _obj: is_admin(user), gettext_lazy("Only staff manage roles.")),
}
