"""Append-only entries in the championship audit trail."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditEntry, Championship, Event


def audit(
    *,
    actor: Any,
    championship: Championship | None,
    action: str,
    target: str = "",
    details: dict | None = None,
    reason: str = "",
    event: Event | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        championship=championship,
        event=event,
        action=action,
        target=target[:120],
        details=details or {},
        reason=reason,
    )
