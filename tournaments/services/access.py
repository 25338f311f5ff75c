"""Who may act on a championship: the checks services start with.

The services' own checks stay the authority (a service is called by views, the API, tasks and
commands alike); they use the predicates and words of `tournaments.permissions`, the same rules
views declare (`RULES`).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from players.types import User
from tournaments.models import Championship, Match
from tournaments.permissions import (
    MANAGE_REFUSAL,
    RULE_REFUSAL,
    can_manage,
    can_rule,
    judge_refusal,
    judges_match,
)


def require_manager(actor: User, championship: Championship) -> None:
    if not can_manage(actor, championship):
        raise PermissionDenied(str(MANAGE_REFUSAL))


def require_ruler(actor: User, championship: Championship) -> None:
    if not can_rule(actor, championship):
        raise PermissionDenied(str(RULE_REFUSAL))


def require_judge(actor: User, match: Match) -> None:
    """The championship's rulers who are no party to the match (staff always)."""
    if not judges_match(actor, match):
        raise PermissionDenied(str(judge_refusal(actor, match)))
