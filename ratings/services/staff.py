"""Staff tools: a recompute as a Celery task with readable progress, an event's Elo now, and
reverting a repeated-results series in one action."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from players.models import Player
from players.types import User
from ratings.models import (
    ChangeReason,
    RatingChange,
    RatingSystem,
    RecomputeRun,
    Review,
    ReviewKind,
    ReviewStatus,
)
from ratings.selectors import both_seats, elo_event_state
from ratings.services.changes import _actor, _require_note
from ratings.services.corrections import games_ratings_revert
from ratings.services.elo import EloRecalculation, elo_event_recalculate
from ratings.services.recompute import ratings_recompute
from ratings.services.reviews import _open_review, _reviews_close_reverted
from ratings.services.scheduling import SCHEDULE_CACHE

# --- A recompute as a task ---------------------------------------------------------------------

PROGRESS_SECONDS = 24 * 3600


def _progress_key(run_id: int) -> str:
    return f"tantrix:ratings:recompute-progress:{run_id}"


def recompute_request(*, actor: User, systems: list[str] | None = None) -> RecomputeRun:
    """Queue a recompute of these tables (all of them by default) for the worker."""
    wanted = list(dict.fromkeys(systems or RatingSystem.values))
    unknown = [s for s in wanted if s not in RatingSystem.values]
    if unknown:
        raise ValidationError(
            {"systems": [_("Unknown table %(table)s.") % {"table": repr(s)} for s in unknown]}
        )
    run = RecomputeRun.objects.create(systems=wanted, requested_by=_actor(actor))

    def publish() -> None:
        from ratings.tasks import recompute_ratings

        recompute_ratings.delay(run.pk)

    transaction.on_commit(publish)
    return run


def recompute_run(*, run_id: int) -> RecomputeRun | None:
    """The task's work: claim the run (a redelivered message finds it claimed), recompute,
    record the outcome. Progress goes to the cache as each table advances."""
    claimed = RecomputeRun.objects.filter(pk=run_id, status=RecomputeRun.Status.QUEUED).update(
        status=RecomputeRun.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    run = RecomputeRun.objects.select_related("requested_by").get(pk=run_id)
    cache = caches[SCHEDULE_CACHE]

    def on_progress(system: str, events: int) -> None:
        progress = cache.get(_progress_key(run_id)) or {}
        progress[system] = events
        cache.set(_progress_key(run_id), progress, timeout=PROGRESS_SECONDS)

    try:
        result = ratings_recompute(
            systems=run.systems, actor=run.requested_by, on_progress=on_progress
        )
    except Exception as exc:  # noqa: BLE001 - recorded for staff to read, then re-raised
        run.status, run.error = RecomputeRun.Status.FAILED, str(exc)[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        raise
    run.status = RecomputeRun.Status.DONE
    run.finished_at = timezone.now()
    run.summary = {
        "seconds": round(result.seconds, 3),
        "systems": {
            s: {"events": r.games, "players": r.players, "corrected": r.corrected, "steps": r.steps}
            for s, r in result.systems.items()
        },
    }
    run.save(update_fields=["status", "finished_at", "summary"])
    return run


def recompute_progress(run: RecomputeRun) -> dict[str, int]:
    """Events replayed so far, per table (while running; the summary says it once done)."""
    return caches[SCHEDULE_CACHE].get(_progress_key(run.pk)) or {}


# --- An event's Elo now ------------------------------------------------------------------------


def event_elo_recalculate_now(*, actor: User, event_id: int) -> EloRecalculation:
    """Recalculate an event's tournament Elo at once (staff), rather than after the gathering
    delay or the hourly beat."""
    if elo_event_state(event_id) is None:
        raise ValidationError({"event": _("This event has no Elo-rated games.")})
    return elo_event_recalculate(event_id=event_id, actor=actor)


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
    note = _require_note(note)
    with transaction.atomic():
        review = _open_review(review_id)
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
        return _reviews_close_reverted(
            actor=actor,
            review=review,
            reviews=closed,
            note=note,
            details={"series": all_ids, "reverted": game_ids},
        )
