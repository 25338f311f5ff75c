"""Who did a rating write and why: the acting user, the note a person must give, and the line
each write leaves in the one audit trail (`players.audit.services`)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from players.audit.services import audit
from players.models import AuditEntry, Player
from players.types import User
from ratings.models import RatingChange, Review, Title


def acting_user(user: User) -> Any:
    """The user to record as the actor: None for the site itself (a task, an anonymous call)."""
    return user if getattr(user, "is_authenticated", False) else None


def rating_audit(
    *,
    actor: User,
    action: str,
    reason: str = "",
    player_id: int | None = None,
    change: RatingChange | None = None,
    review: Review | None = None,
    title: Title | None = None,
    details: dict | None = None,
    event_id: int | None = None,
) -> AuditEntry:
    """A line of the one audit trail (`players.audit.services`) about ratings."""
    return audit(
        actor=actor,
        action=action,
        reason=reason,
        subject_player=Player.objects.get(pk=player_id) if player_id is not None else None,
        rating_change_id=change.pk if change is not None else None,
        review_id=review.pk if review is not None else None,
        title_id=title.pk if title is not None else None,
        event_id=event_id,
        details=details,
    )


def required_note(note: str, field_name: str = "note") -> str:
    """The note a person gives for a change they make, stripped; refused when empty."""
    note = (note or "").strip()
    if not note:
        raise ValidationError({field_name: _("Say why: this is kept in the audit trail.")})
    return note
