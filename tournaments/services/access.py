"""Who may act on a championship: the checks services start with."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from players.types import User
from tournaments.models import Championship
from tournaments.permissions import can_manage, can_rule


def require_manager(actor: User, championship: Championship) -> None:
    if not can_manage(actor, championship):
        raise PermissionDenied(_("Only this championship's organisers may do that."))


def require_ruler(actor: User, championship: Championship) -> None:
    if not can_rule(actor, championship):
        raise PermissionDenied(_("Only this championship's organisers and controllers may rule."))
