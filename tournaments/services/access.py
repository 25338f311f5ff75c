"""Who may act on a championship: the checks services start with."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.types import User
from tournaments.models import Championship, Match
from tournaments.permissions import can_manage, can_rule, judges_match


def require_manager(actor: User, championship: Championship) -> None:
    if not can_manage(actor, championship):
        raise PermissionDenied(_("Only this championship's organisers may do that."))


def require_ruler(actor: User, championship: Championship) -> None:
    if not can_rule(actor, championship):
        raise PermissionDenied(_("Only this championship's organisers and controllers may rule."))


PARTY_REFUSAL = gettext_lazy(
    "You take part in it (you play in it or reported it): another of this championship's "
    "controllers or organisers, or the site staff, decides it."
)


def require_judge(actor: User, match: Match) -> None:
    """The championship's rulers who are no party to the match (staff always)."""
    require_ruler(actor, match.event.championship)
    if not judges_match(actor, match):
        raise PermissionDenied(str(PARTY_REFUSAL))
