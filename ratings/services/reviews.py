"""Review actions: an admin approves what a flag shows, or reverts it (a repeated-results flag:
its whole series of games in one action)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from players.models import Player
from players.types import User
from ratings.models import (
    AuditAction,
    ChangeReason,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
    ReviewStatus,
)
from ratings.queue.kinds import is_elo_swing
from ratings.selectors import both_seats
from ratings.services.audit import acting_user, rating_audit, required_note
from ratings.services.corrections import change_revert, game_ratings_revert, games_ratings_revert

# --- Reviews -----------------------------------------------------------------------------------


def open_review(review_id: int) -> Review:
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
    rating_audit(
        actor=actor,
        action=action,
        reason=note,
        review=review,
        player_id=review.player_id,
        change=review.change,
        **extra,
    )


def reviews_close_reverted(
    *, actor: User, review: Review, reviews: QuerySet[Review], note: str, details: dict[str, Any]
) -> Review:
    """Close ``reviews`` (``review`` among them) as reverted by ``actor`` with ``note``, under
    one audit entry for ``review`` that lists them all; returns ``review`` as it now stands."""
    closed = list(reviews.values_list("pk", flat=True))
    Review.objects.filter(pk__in=closed).update(
        status=ReviewStatus.REVERTED,
        reviewer=acting_user(actor),
        note=note,
        resolved_at=timezone.now(),
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


def review_approve(*, actor: User, review_id: int, note: str = "") -> Review:
    """Acknowledge a review: close it leaving the ratings as they are (the note is optional:
    nothing changes that needs a why)."""
    note = (note or "").strip()
    with transaction.atomic():
        review = open_review(review_id)
        review.status = ReviewStatus.APPROVED
        review.reviewer = acting_user(actor)
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
    note = required_note(note)
    with transaction.atomic():
        review = open_review(review_id)
        if is_elo_swing(review):
            raise ValidationError(
                {
                    "review": _(
                        "A Tournament Elo swing follows from the event's games: revert one of "
                        "the games behind it, or adjust."
                    )
                }
            )
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
        return reviews_close_reverted(
            actor=actor, review=review, reviews=siblings, note=note, details={"game": game_id}
        )


# --- A repeated-results series -----------------------------------------------------------------


@dataclass(frozen=True)
class SeriesGame:
    """One game of a flagged series, named by both players."""

    game_id: int
    played_at: dt.datetime
    winner: str
    loser: str
    winner_score: int
    loser_score: int
    counts: bool  # not reverted yet


def review_series(review: Review) -> list[SeriesGame]:
    """The games a repeated-results flag counted: the winner beating the opponent within the
    window that ends with the flagged game, oldest first."""
    if review.kind != ReviewKind.REPEATED_RESULTS or review.game_id is None:
        return []
    detail = review.detail or {}
    winner, loser = review.player_id, detail.get("opponent")
    end = Game.objects.filter(pk=review.game_id).values_list("played_at", flat=True).first()
    if loser is None or end is None:
        return []
    start = end - dt.timedelta(hours=detail.get("hours") or 24)
    names = dict(Player.objects.filter(pk__in=[winner, loser]).values_list("pk", "display_name"))
    rows = (
        Game.objects.filter(
            players_count=2,
            is_pairs=False,
            winner_seat__in=(0, 1),
            played_at__gte=start,
            played_at__lte=end,
        )
        .annotate(**both_seats())
        .filter(first__player_id__in=[winner, loser], second__player_id__in=[winner, loser])
        .order_by("played_at", "id")
        .values_list(
            "id",
            "played_at",
            "winner_seat",
            "first__player_id",
            "first__score",
            "second__player_id",
            "second__score",
        )
    )
    games = []
    for game_id, played, seat, p0, s0, p1, s1 in rows:
        if (p0 if seat == 0 else p1) != winner or p0 == p1:
            continue
        scores = (s0, s1) if seat == 0 else (s1, s0)
        games.append((game_id, played, scores))
    counting = set(
        RatingChange.objects.filter(
            game_id__in=[g for g, _, _ in games],
            reason=ChangeReason.GAME,
            system=RatingSystem.LOBBY,
            reverted_by__isnull=True,
        ).values_list("game_id", flat=True)
    )
    return [
        SeriesGame(
            game_id=game_id,
            played_at=played,
            winner=names.get(winner, ""),
            loser=names.get(loser, ""),
            winner_score=scores[0],
            loser_score=scores[1],
            counts=game_id in counting,
        )
        for game_id, played, scores in games
    ]


def review_revert_series(*, actor: User, review_id: int, note: str) -> Review:
    """Close a repeated-results flag by reverting every game of its series still counting, in
    one replay per table; the other open flags of those games close with it."""
    note = required_note(note)
    with transaction.atomic():
        review = open_review(review_id)
        if review.kind != ReviewKind.REPEATED_RESULTS:
            raise ValidationError({"review": _("Only a repeated-results flag has a series.")})
        series = review_series(review)
        game_ids = [g.game_id for g in series if g.counts]
        if game_ids:
            games_ratings_revert(actor=actor, game_ids=game_ids, note=note)
        all_ids = [g.game_id for g in series]
        closed = Review.objects.filter(status=ReviewStatus.OPEN, game_id__in=all_ids) | (
            Review.objects.filter(pk=review.pk)
        )
        return reviews_close_reverted(
            actor=actor,
            review=review,
            reviews=closed,
            note=note,
            details={"series": all_ids, "reverted": game_ids},
        )
