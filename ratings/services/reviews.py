"""Review actions: an admin approves what a flag shows, or reverts it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from players.types import User
from ratings.models import (
    AuditAction,
    ChangeReason,
    RatingChange,
    Review,
    ReviewStatus,
)
from ratings.services.changes import _actor, _audit, _require_note
from ratings.services.corrections import change_revert, game_ratings_revert

# --- Reviews -----------------------------------------------------------------------------------


def _open_review(review_id: int) -> Review:
    review = Review.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise ValidationError({"review": _("No such review.")})
    if not review.is_open:
        raise ValidationError(
            {
                "review": _("This review is already %(status)s.")
                % {"status": review.get_status_display()}
            }
        )
    return review


def _review_audit(*, actor: User, review: Review, action: str, note: str, **extra: Any) -> None:
    _audit(
        actor=actor,
        action=action,
        reason=note,
        review=review,
        player_id=review.player_id,
        change=review.change,
        **extra,
    )


def _reviews_close_reverted(
    *, actor: User, review: Review, reviews: QuerySet[Review], note: str, details: dict[str, Any]
) -> Review:
    """Close ``reviews`` (``review`` among them) as reverted by ``actor`` with ``note``, under
    one audit entry for ``review`` that lists them all; returns ``review`` as it now stands."""
    closed = list(reviews.values_list("pk", flat=True))
    Review.objects.filter(pk__in=closed).update(
        status=ReviewStatus.REVERTED, reviewer=_actor(actor), note=note, resolved_at=timezone.now()
    )
    review.refresh_from_db()
    _review_audit(
        actor=actor,
        review=review,
        action=AuditAction.REVIEW_REVERT,
        note=note,
        details={**details, "reviews_closed": closed},
    )
    return review


def review_approve(*, actor: User, review_id: int, note: str) -> Review:
    """Close a review leaving the ratings as they are."""
    note = _require_note(note)
    with transaction.atomic():
        review = _open_review(review_id)
        review.status = ReviewStatus.APPROVED
        review.reviewer = _actor(actor)
        review.note = note
        review.resolved_at = timezone.now()
        review.save(update_fields=["status", "reviewer", "note", "resolved_at"])
        _review_audit(
            actor=actor,
            review=review,
            action=AuditAction.REVIEW_APPROVE,
            note=note,
            title=review.title,
        )
    return review


def review_revert(*, actor: User, review_id: int, note: str) -> Review:
    """Close a review by reverting what it flags: the flagged game in every table, or the
    flagged change. Other open reviews of the same game close with it."""
    note = _require_note(note)
    with transaction.atomic():
        review = _open_review(review_id)
        if review.change_id is None and review.game_id is None:
            raise ValidationError(
                {
                    "review": _(
                        "This review flags a player, not a change: there is nothing to revert."
                    )
                }
            )
        game_id = review.game_id or (review.change.game_id if review.change else None)
        if game_id is not None:
            still_counts = RatingChange.objects.filter(
                game_id=game_id, reason=ChangeReason.GAME, reverted_by__isnull=True
            ).exists()
            if still_counts:
                game_ratings_revert(actor=actor, game_id=game_id, note=note)
        elif not review.change.is_reverted:
            change_revert(actor=actor, change_id=review.change_id, note=note)
        siblings = Review.objects.filter(status=ReviewStatus.OPEN)
        siblings = (
            siblings.filter(Q(game_id=game_id) | Q(change__game_id=game_id))
            if game_id is not None
            else siblings.filter(pk=review.pk)
        )
        return _reviews_close_reverted(
            actor=actor, review=review, reviews=siblings, note=note, details={"game": game_id}
        )
