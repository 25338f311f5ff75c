"""The audit trail page's filters."""

from __future__ import annotations

from django import template

from players.audit.registry import audit_reason_shown, audit_target_shown

register = template.Library()


@register.filter
def audit_reason(reason: str) -> str:
    """A stored reason, translated when an app wrote it itself (`register_audit_reasons`)."""
    return audit_reason_shown(reason or "")


@register.filter
def audit_target(entry) -> str:
    """An entry's target, translated when an app stored it itself (`register_audit_targets`)."""
    return audit_target_shown(entry)
