"""The championship side of the one audit trail (`players.audit.services`).

Only names the championship and event by id, so the trail keeps them after a deletion.
`audit_entry` is the same entry unwritten, for a status move whose entry `transition()` writes.
"""

from __future__ import annotations

from typing import Any

from players.audit.services import audit as trail_audit
from players.models import AuditEntry
from players.types import User
from tournaments.models import Championship, Event


def audit_entry(
    *,
    actor: User,
    championship: Championship | None,
    action: str,
    target: str = "",
    details: dict | None = None,
    reason: str = "",
    event: Event | None = None,
) -> dict[str, Any]:
    """The keyword arguments of the trail's `audit()` for a championship's entry."""
    return {
        "actor": actor,
        "action": action,
        "target": target,
        "details": details,
        "reason": reason,
        "championship_id": championship.pk if championship is not None else None,
        "event_id": event.pk if event is not None else None,
    }


def audit(
    *,
    actor: User,
    championship: Championship | None,
    action: str,
    target: str = "",
    details: dict | None = None,
    reason: str = "",
    event: Event | None = None,
) -> AuditEntry:
    return trail_audit(
        **audit_entry(
            actor=actor,
            championship=championship,
            action=action,
            target=target,
            details=details,
            reason=reason,
            event=event,
        )
    )
