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
from django.core.cache import BaseCache, caches
from django.db import DatabaseError, connection

from ratings.models import PendingRating
from ratings.services.apply import (
    AppliedBatch,
    _apply_batch,
    game_ratings_announce,
    games_ratings_announce,
)
from tantrix_site.celery import app as celery_app

logger = logging.getLogger(__name__)

SCHEDULE_CACHE = "ratings"


def _tasks_eager() -> bool:
    """Tasks run in-process (no broker, or the tests' eager mode): no key is needed."""
    return bool(celery_app.conf.task_always_eager)


def _schedule_cache() -> BaseCache:
    return caches[SCHEDULE_CACHE]


def _schedule_key() -> str:
    return f"tantrix:ratings:apply-scheduled:{connection.settings_dict['NAME']}"


def _schedule_claim() -> bool:
    """Whether the caller should publish the apply task (none is queued or running)."""
    if _tasks_eager():
        return True
    try:
        return _schedule_cache().add(
            _schedule_key(), 1, timeout=settings.RATINGS_APPLY_SCHEDULE_SECONDS
        )
    except Exception:  # noqa: BLE001 - Redis down: publish anyway (a duplicate is harmless)
        return True


def _schedule_keep() -> None:
    try:
        _schedule_cache().set(_schedule_key(), 1, timeout=settings.RATINGS_APPLY_SCHEDULE_SECONDS)
    except Exception:  # noqa: BLE001 - the next announcement publishes a task instead
        logger.warning("could not keep the ratings apply schedule", exc_info=True)


def _schedule_release() -> None:
    if _tasks_eager():
        return
    try:
        _schedule_cache().delete(_schedule_key())
    except Exception:  # noqa: BLE001 - the key expires by itself
        logger.warning("could not release the ratings apply schedule", exc_info=True)


def _publish_apply(game_id: int | None, *, claimed: bool, countdown: float = 0.0) -> bool:
    from ratings.tasks import apply_game

    try:
        if countdown:
            apply_game.apply_async((game_id,), countdown=countdown)
        else:
            apply_game.delay(game_id)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
        if claimed:
            _schedule_release()
        logger.warning(
            "could not enqueue the ratings (game %s); the sweep will", game_id, exc_info=True
        )
        return False
    return True


def enqueue_game_ratings(game_id: int) -> bool:
    """Announce an adjudicated game to the ratings and see that an apply task will run.

    Returns False when the task could not be published (broker outage: logged, never raised);
    the game stays pending, and the next task or the sweep (beat) applies it.
    """
    try:
        announced = game_ratings_announce(game_id)
    except DatabaseError:
        logger.warning("could not announce game %s to the ratings", game_id, exc_info=True)
        # Unannounced: its own task applies it, with the unrated games played before it.
        return _publish_apply(game_id, claimed=False)
    if not announced:
        return True  # no table takes it, or it was announced before
    if not _schedule_claim():
        return True  # a task is queued or running; it (or the one it publishes) applies this
    return _publish_apply(game_id, claimed=True)


def enqueue_games_ratings(game_ids: list[int]) -> bool:
    """`enqueue_game_ratings` for games whose results stood together: one statement announces
    them all, one key claim and at most one task follow."""
    try:
        announced = games_ratings_announce(game_ids)
    except DatabaseError:
        logger.warning("could not announce games %s to the ratings", game_ids, exc_info=True)
        return all([enqueue_game_ratings(game_id) for game_id in game_ids])
    if not announced or not _schedule_claim():
        return True
    return _publish_apply(None, claimed=True)


def enqueue_pending_ratings() -> bool:
    """Publish the apply task for the pending games, unless one is queued or running."""
    if not _schedule_claim():
        return True
    return _publish_apply(None, claimed=True)


def ratings_apply_continue(batch: AppliedBatch, *, game_id: int | None = None) -> None:
    """After an apply task's batch: publish the next task if games are pending, else give the
    schedule back."""
    if _tasks_eager():  # in-process: finish here rather than recursing through the task
        while (batch.more or not batch.target_done) and batch.progress:
            batch = _apply_batch(target=None if batch.target_done else game_id)
        return
    target = None if batch.target_done else game_id
    if (batch.more or not batch.target_done) and batch.progress:
        _schedule_keep()  # a backlog: go on at once
        _publish_apply(target, claimed=True)
    elif PendingRating.objects.exists():
        _schedule_keep()  # games arrive while we work: let the next batch gather a moment
        _publish_apply(None, claimed=True, countdown=settings.RATINGS_APPLY_BATCH_SECONDS)
    else:
        _schedule_release()
        # An announcement between the look and the release saw the key taken: publish for it.
        if PendingRating.objects.exists() and _schedule_claim():
            _publish_apply(None, claimed=True)


# An event's results change in bursts (a round's games arrive together, a finished match
# finishes its event): one recalculation gathers them. Publishing takes a per-event key and
# starts the task a moment later; the task gives the key back as it starts, so a change
# committed while it runs publishes the next one. A lost key only delays the next publish by
# its time-to-live; the hourly beat (`recalculate_changed_elo`) catches whatever was missed.
ELO_EVENT_GATHER_SECONDS = 10
ELO_EVENT_KEY_SECONDS = 600


def _elo_event_key(event_id: int) -> str:
    return f"tantrix:ratings:elo-scheduled:{connection.settings_dict['NAME']}:{event_id}"


def _elo_event_claim(event_id: int) -> bool:
    """Whether the caller should publish the event's recalculation (none is queued)."""
    if _tasks_eager():
        return True
    try:
        return _schedule_cache().add(_elo_event_key(event_id), 1, timeout=ELO_EVENT_KEY_SECONDS)
    except Exception:  # noqa: BLE001 - cache down: publish anyway (the task is idempotent)
        return True


def elo_event_release(event_id: int) -> None:
    """The event's recalculation starts: a change from now on publishes another one."""
    if _tasks_eager():
        return
    try:
        _schedule_cache().delete(_elo_event_key(event_id))
    except Exception:  # noqa: BLE001 - the key expires by itself
        logger.warning("could not release the Elo schedule of event %s", event_id, exc_info=True)


def enqueue_event_elo(event_id: int) -> bool:
    """See that the event's Elo is recalculated soon: the entry point for "its results changed"
    (tournaments calls it on commit; a revert of one of its games too).

    At most one recalculation per event is queued at a time; returns False when the task
    could not be published (logged, never raised): the hourly beat recalculates it then.
    """
    from ratings.tasks import recalculate_event_elo

    if not _elo_event_claim(event_id):
        return True  # one is queued; it has not started yet, so it will see this change
    try:
        recalculate_event_elo.apply_async((event_id,), countdown=ELO_EVENT_GATHER_SECONDS)
    except Exception:  # noqa: BLE001 - as above; the periodic recalculation catches up
        elo_event_release(event_id)
        logger.warning("could not enqueue the Elo of event %s", event_id, exc_info=True)
        return False
    return True
