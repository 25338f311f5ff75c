"""Celery tasks of the ratings app: thin wrappers over one service each, routed to the
"ratings" queue by their name. They take ids and are safe to run twice."""

from __future__ import annotations

from celery import shared_task
from celery.utils.log import get_task_logger
from django.db import OperationalError

from ratings import services

logger = get_task_logger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    name="ratings.tasks.apply_game",
)
def apply_game(self, game_id: int | None = None) -> list[str]:
    """Apply the announced games, in game order, in one batch (and ``game_id`` if it was never
    announced); then publish the next batch if games are still pending.

    One such task is queued or running at a time in normal operation (see
    ``services.enqueue_game_ratings``), so a burst of games is applied in a few batches. Late
    acknowledgement and rejection on worker loss redeliver the message if a worker dies; that is
    safe because a game is applied at most once per table (checked under the tables' advisory
    locks, backed by a unique constraint), so a duplicate finds the work done. A database error
    is retried with growing delays; after five tries we stop, because the next task or the sweep
    on beat applies any game still pending anyway.
    """
    try:
        batch = services.games_ratings_apply_announced(game_id=game_id)
    except OperationalError as exc:
        raise self.retry(exc=exc, countdown=min(300, 5 * 2**self.request.retries)) from exc
    more = ", more pending" if batch.more else ""
    logger.info("applied %d game(s) in one batch%s", len(batch.moved), more)
    services.ratings_apply_continue(batch, game_id=game_id)
    return batch.moved.get(game_id, []) if game_id is not None else []


@shared_task(acks_late=True, name="ratings.tasks.sweep_unrated_games")
def sweep_unrated_games() -> dict[str, int]:
    """Beat task: rate games missed (broker outage), flag rated games invalidated since.

    No retries: it runs again at the next beat, and both halves are idempotent.
    """
    return services.ratings_sweep()


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=3,
    name="ratings.tasks.recalculate_event_elo",
)
def recalculate_event_elo(self, event_id: int) -> int:
    """Recalculate one tournament's Elo when its results changed (a game counted, a ruling, a
    time penalty, the event finished, a game reverted), published by `enqueue_event_elo`.

    Recalculating is idempotent (it writes only what differs), so redelivery is harmless; a
    database error is retried a few times, and the periodic recalculation catches up after.
    The event's "queued" key is given back first, so a change committed from now on queues
    the next recalculation rather than being missed.
    """
    services.elo_event_release(event_id)
    try:
        return services.elo_event_recalculate(event_id=event_id).changes
    except OperationalError as exc:
        raise self.retry(exc=exc, countdown=30) from exc


@shared_task(acks_late=True, name="ratings.tasks.recalculate_changed_elo")
def recalculate_changed_elo() -> int:
    """Beat task: recalculate every tournament whose games changed, in tournament order.

    No retries: whatever fails is still "changed" at the next beat.
    """
    return len(services.elo_recalculate_changed())


@shared_task(acks_late=True, name="ratings.tasks.check_title_lapses")
def check_title_lapses() -> int:
    """Beat task: flag held Master titles not kept by enough Master games.

    No retries: flagging is idempotent (one open lapse review per title) and runs daily.
    """
    return len(services.titles_check_lapses())


@shared_task(acks_late=True, name="ratings.tasks.recompute_ratings")
def recompute_ratings(run_id: int) -> str:
    """A recompute asked for by staff (web or API): replays the tables and records the outcome
    on its ``RecomputeRun``, with progress readable meanwhile.

    No retries: a failure is recorded on the run for staff to read, and they ask again; a
    redelivered message finds the run claimed and does nothing.
    """
    run = services.recompute_run(run_id=run_id)
    return run.status if run is not None else "already claimed"
