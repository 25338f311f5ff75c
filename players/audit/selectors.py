"""Reads of the one audit trail (the staff's page and API)."""

from __future__ import annotations

from django.db.models import QuerySet

from players.audit.registry import audit_area_actions
from players.models import AuditEntry


def audit_entries(
    *,
    action: str = "",
    area: str = "",
    player_id: int | None = None,
    championship_id: int | None = None,
    rating_change_id: int | None = None,
) -> QuerySet[AuditEntry]:
    """The one audit trail, newest first, filtered by action or area (players, tournaments,
    ratings: `players.audit.registry`), the player it is about, a championship or a rating
    change."""
    entries = AuditEntry.objects.select_related("actor", "subject_user", "subject_player")
    if action:
        entries = entries.filter(action=action)
    if area:
        entries = entries.filter(action__in=audit_area_actions(area))
    if player_id is not None:
        entries = entries.filter(subject_player_id=player_id)
    if championship_id is not None:
        entries = entries.filter(championship_id=championship_id)
    if rating_change_id is not None:
        entries = entries.filter(rating_change_id=rating_change_id)
    return entries.order_by("-created", "-id")
