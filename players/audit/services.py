"""The one way to write the audit trail."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from players.audit.registry import audit_type, is_audit_action
from players.models import AuditEntry, Player
from players.types import User


def audit(
    *,
    actor: User,
    action: str,
    subject_user: Any = None,
    subject_player: Player | None = None,
    target: str = "",
    reason: str = "",
    details: dict | None = None,
    championship_id: int | None = None,
    event_id: int | None = None,
    rating_change_id: int | None = None,
    review_id: int | None = None,
    title_id: int | None = None,
) -> AuditEntry:
    """Append one entry. Call it inside the transaction of the change it records.

    `action` must be a registered action (`players.audit.registry`; an unknown one is a bug:
    ValueError), and its details must fit its type's shape when it has one (ValueError too).
    `actor` may be anonymous or None (a worker, a command, a person signing up). `target`
    defaults to the subject's name as it is now. The `*_id` arguments name objects of higher
    apps (championship, event, rating change, review, title) so their pages can filter.
    """
    if not is_audit_action(action):
        raise ValueError(f"unregistered audit action {action!r}")
    if (declared := audit_type(action)) is not None:
        declared.check(details or {})
    actor_user = actor if getattr(actor, "is_authenticated", False) else None
    if not target:
        if subject_player is not None:
            target = subject_player.display_name
        elif subject_user is not None:
            target = subject_user.get_username()
    return AuditEntry.objects.create(
        actor=actor_user,
        actor_name=actor_user.get_username() if actor_user is not None else "",
        action=action,
        subject_user=subject_user,
        subject_player=subject_player,
        target=target[:200],
        reason=reason,
        # Dates and decimals become strings now, not at some later read.
        details=json.loads(json.dumps(details or {}, cls=DjangoJSONEncoder)),
        championship_id=championship_id,
        event_id=event_id,
        rating_change_id=rating_change_id,
        review_id=review_id,
        title_id=title_id,
    )
