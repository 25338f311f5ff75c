"""The review queue's actions beyond acknowledge and revert (``ratings.services.reviews``): a
tournament Elo swing reverted game by game, and an item settled by a manual adjustment. Each is
refused for an item of another kind (``ratings.queue.kinds``) and leaves its audit lines: those
of the write it makes (the games reverted, the Elo recalculated, the adjustment) and one for the
review."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players.types import User
from ratings.models import AuditAction, Review, ReviewStatus
from ratings.queue.kinds import ADJUST, REVERT_GAMES, review_actions
from ratings.queue.selectors import swing_games
from ratings.services.audit import acting_user, rating_audit, required_note
from ratings.services.corrections import games_ratings_revert, rating_adjust
from ratings.services.elo import elo_event_recalculate
from ratings.services.reviews import open_review, reviews_close_reverted


def review_revert_games(*, actor: User, review_id: int, game_ids: list[int], note: str) -> Review:
    """Settle a tournament Elo swing by reverting games behind it: each game is taken out of
    every table it counts in (``games_ratings_revert``, its audit line per game) and the event's
    Elo is recalculated without them at once (its audit line), so the page shows the swing as it
    now stands. The review closes as reverted, with the other open items about those games."""
    note = required_note(note)
    wanted = list(dict.fromkeys(int(g) for g in game_ids))
    if not wanted:
        raise ValidationError({"games": _("Choose a game behind the swing to revert.")})
    with transaction.atomic():
        review = open_review(review_id)
        if REVERT_GAMES not in review_actions(review):
            raise ValidationError(
                {
                    "review": _(
                        "Only a Tournament Elo swing is reverted game by game; this item has "
                        "its own actions."
                    )
                }
            )
        behind = {game.game_id: game for game in swing_games(review)}
        if any(game_id not in behind for game_id in wanted):
            raise ValidationError({"games": _("Choose among the games behind this swing.")})
        if any(not behind[game_id].counts for game_id in wanted):
            raise ValidationError(
                {"games": _("A chosen game no longer counts: it has been reverted already.")}
            )
        games_ratings_revert(actor=actor, game_ids=wanted, note=note)
        event_id = review.change.event_id
        # Now, not after the few seconds' gathering delay: the admin reads the result next. Not
        # flagged again: the change it writes is the admin's own decision.
        elo_event_recalculate(event_id=event_id, actor=actor, flag_swings=False)
        closing = Review.objects.filter(status=ReviewStatus.OPEN).filter(
            Q(pk=review.pk) | Q(game_id__in=wanted) | Q(change__game_id__in=wanted)
        )
        return reviews_close_reverted(
            actor=actor,
            review=review,
            reviews=closing,
            note=note,
            details={"reverted": wanted, "event": event_id},
        )


def review_adjust(
    *,
    actor: User,
    review_id: int,
    reason: str,
    delta: float | None = None,
    value: float | None = None,
) -> Review:
    """Settle a large swing by a manual adjustment of its player in its table, by ``delta`` or to
    ``value`` (``rating_adjust``, with its own audit line); the review closes as adjusted, its
    audit line naming the adjustment."""
    reason = required_note(reason, "reason")
    with transaction.atomic():
        review = open_review(review_id)
        if ADJUST not in review_actions(review):
            raise ValidationError(
                {
                    "review": _(
                        "Only a large swing is adjusted from its review; use the manual "
                        "adjustment form for anything else."
                    )
                }
            )
        table = review.change.system
        change = rating_adjust(
            actor=actor,
            player_id=review.player_id,
            system=table,
            reason=reason,
            delta=delta,
            value=value,
        )
        review.status = ReviewStatus.ADJUSTED
        review.reviewer = acting_user(actor)
        review.note = reason
        review.resolved_at = timezone.now()
        review.save(update_fields=["status", "reviewer", "note", "resolved_at"])
        rating_audit(
            actor=actor,
            action=AuditAction.REVIEW_ADJUST,
            reason=reason,
            review=review,
            player_id=review.player_id,
            change=change,
            details={"system": table, "before": change.before, "after": change.after},
        )
    return review
