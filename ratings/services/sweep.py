"""The beat sweep: rate what was missed, flag what was invalidated."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from games.models import Game, RecordStatus
from ratings.models import (
    ChangeReason,
    RatingChange,
    Review,
    ReviewKind,
)
from ratings.notes import RECORD_INVALID_NOTE
from ratings.services.apply import apply_batch
from ratings.services.flags import game_review_flag
from ratings.services.scheduling import enqueue_pending_ratings


def games_ratings_apply_pending(*, limit: int = 5000) -> int:
    """The sweep: apply the announced games and every unrated game of the sweep window, in game
    order (one transaction); returns how many games moved a table."""
    batch = apply_batch(sweep=True, limit=limit)
    if batch.more:
        enqueue_pending_ratings()
    return batch.games_moved


def games_flag_invalidated() -> int:
    """Flag rated games whose record is no longer valid (and not reverted yet).

    Starts from the few records that are not valid (status is indexed), not from the changes.
    """
    still_counts = RatingChange.objects.filter(
        game=OuterRef("pk"), reason=ChangeReason.GAME, reverted_by__isnull=True
    )
    flagged_before = Review.objects.filter(game=OuterRef("pk"), kind=ReviewKind.GAME_INVALIDATED)
    game_ids = (
        Game.objects.exclude(record__status=RecordStatus.VALID)
        .filter(Exists(still_counts))
        .filter(~Exists(flagged_before))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    flagged = 0
    for game_id in list(game_ids):
        if game_review_flag(game_id=game_id, note=RECORD_INVALID_NOTE):
            flagged += 1
    return flagged


def ratings_sweep() -> dict[str, int]:
    """The beat task's work: rate what was missed, flag what was invalidated."""
    return {"applied": games_ratings_apply_pending(), "flagged": games_flag_invalidated()}
