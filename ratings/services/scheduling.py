"""Scheduling the apply task (at most one queued or running) and each event's Elo
recalculation (at most one queued per event, see `enqueue_event_elo`).

At most one apply task is queued or running at a time (per database): announcing a game
publishes the task only when it takes the "scheduled" key (``cache.add``: SET NX with a
time-to-live on Redis). When its batch is committed the task looks for games announced
meanwhile: if there are some (the site is busy), it keeps the key and publishes the next task to
start a moment later (``RATINGS_APPLY_BATCH_SECONDS``), so that games gather into batches; if
not, it gives the key back (and looks once more, for an announcement that saw the key taken). An
idle site has each game applied at once; a burst becomes a few batch tasks. Correctness never
depends on this: a duplicate task finds nothing to do, and a lost key only delays the next task
by the time-to-live (or until the sweep).

The key lives in the ``ratings`` cache (settings): the default cache when it is Redis
(``CACHE_URL``), else the broker's Redis, so web and worker processes all see it.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError

from ratings.models import PendingRating
from ratings.services.apply import (
    AppliedBatch,
    apply_batch,
    game_ratings_announce,
    games_ratings_announce,
)
from tantrix_site import queueing
from tantrix_site.queueing import QueuedKey, publish, publish_once

logger = logging.getLogger(__name__)

SCHEDULE_CACHE = "ratings"
APPLY_TASK = "ratings.tasks.apply_game"
ELO_EVENT_TASK = "ratings.tasks.recalculate_event_elo"


def apply_queued() -> QueuedKey:
    """The apply task's "scheduled" key (queued or running)."""
    return QueuedKey(
        cache=SCHEDULE_CACHE,
        name="ratings:apply-scheduled",
        seconds=settings.RATINGS_APPLY_SCHEDULE_SECONDS,
    )


def _publish_apply(game_id: int | None, *, countdown: float | None = None) -> bool:
    """Publish the apply task, the caller holding the scheduled key."""
    return publish_once(apply_queued(), APPLY_TASK, game_id, countdown=countdown, held=True)


def enqueue_game_ratings(game_id: int) -> bool:
    """Announce an adjudicated game to the ratings and see that an apply task will run.

    Returns False when the task could not be published (broker outage: logged, never raised);
    the game stays pending, and the next task or the sweep (beat) applies it.
    """
    try:
        announced = game_ratings_announce(game_id)
    except DatabaseError:
        logger.warning("could not announce game %s to the ratings", game_id, exc_info=True)
        # Unannounced: its own task applies it, with the unrated games played before it. The
        # key is not taken for it, so a failed publish has nothing to give back.
        try:
            publish(APPLY_TASK, game_id)
        except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
            logger.warning(
                "could not enqueue the ratings (game %s); the sweep will", game_id, exc_info=True
            )
            return False
        return True
    if not announced:
        return True  # no table takes it, or it was announced before
    # A task queued or running applies this (or the one it publishes does).
    return publish_once(apply_queued(), APPLY_TASK, game_id)


def enqueue_games_ratings(game_ids: list[int]) -> bool:
    """`enqueue_game_ratings` for games whose results stood together: one statement announces
    them all, one key claim and at most one task follow."""
    try:
        announced = games_ratings_announce(game_ids)
    except DatabaseError:
        logger.warning("could not announce games %s to the ratings", game_ids, exc_info=True)
        return all([enqueue_game_ratings(game_id) for game_id in game_ids])
    if not announced:
        return True
    return publish_once(apply_queued(), APPLY_TASK, None)


def enqueue_pending_ratings() -> bool:
    """Publish the apply task for the pending games, unless one is queued or running."""
    return publish_once(apply_queued(), APPLY_TASK, None)


def ratings_apply_continue(batch: AppliedBatch, *, game_id: int | None = None) -> None:
    """After an apply task's batch: publish the next task if games are pending, else give the
    schedule back."""
    if queueing.tasks_eager():  # in-process: finish here rather than recursing through the task
        while (batch.more or not batch.target_done) and batch.progress:
            batch = apply_batch(target=None if batch.target_done else game_id)
        return
    queued = apply_queued()
    target = None if batch.target_done else game_id
    if (batch.more or not batch.target_done) and batch.progress:
        queued.keep()  # a backlog: go on at once
        _publish_apply(target)
    elif PendingRating.objects.exists():
        queued.keep()  # games arrive while we work: let the next batch gather a moment
        _publish_apply(None, countdown=settings.RATINGS_APPLY_BATCH_SECONDS)
    else:
        queued.release()
        # An announcement between the look and the release saw the key taken: publish for it.
        if PendingRating.objects.exists():
            publish_once(queued, APPLY_TASK, None)


# An event's results change in bursts (a round's games arrive together, a finished match
# finishes its event): one recalculation gathers them. Publishing takes a per-event key and
# starts the task a moment later; the task gives the key back as it starts, so a change
# committed while it runs publishes the next one. A lost key only delays the next publish by
# its time-to-live; the hourly beat (`recalculate_changed_elo`) catches whatever was missed.
ELO_EVENT_GATHER_SECONDS = 10
ELO_EVENT_KEY_SECONDS = 600


def elo_event_queued(event_id: int) -> QueuedKey:
    """The event's "recalculation queued" key."""
    return QueuedKey(
        cache=SCHEDULE_CACHE,
        name=f"ratings:elo-scheduled:{event_id}",
        seconds=ELO_EVENT_KEY_SECONDS,
    )


def elo_event_release(event_id: int) -> None:
    """The event's recalculation starts: a change from now on publishes another one."""
    elo_event_queued(event_id).release()


def enqueue_event_elo(event_id: int) -> bool:
    """See that the event's Elo is recalculated soon: the entry point for "its results changed"
    (tournaments calls it on commit; a revert of one of its games too).

    At most one recalculation per event is queued at a time (one that is queued has not started
    yet, so it will see this change); returns False when the task could not be published
    (logged, never raised): the hourly beat recalculates it then.
    """
    return publish_once(
        elo_event_queued(event_id), ELO_EVENT_TASK, event_id, countdown=ELO_EVENT_GATHER_SECONDS
    )
