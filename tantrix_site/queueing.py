"""Publishing Celery tasks from services, without importing the apps' ``tasks`` modules.

Tasks import services, never the reverse: a service names the task it publishes by its
registered name (the ``name=`` of its ``@shared_task``, the name in the broker and the beat
schedule). ``publish`` is the one place that turns that name into a message; ``publish_once``
is the one way to publish a debounced batch task, at most one queued at a time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import Task
from celery.exceptions import NotRegistered
from django.core.cache import caches
from django.db import connection

from tantrix_site.celery import app as celery_app

logger = logging.getLogger(__name__)


def tasks_eager() -> bool:
    """Tasks run in-process (no broker, or the unit tests' eager mode)."""
    return bool(celery_app.conf.task_always_eager)


def registered_task(task_name: str) -> Task:
    """The task registered under this name, from the Celery app's registry.

    The registry rather than ``send_task``: a registered task honours eager mode (no broker,
    `make run`, the unit tests: it runs at once, in-process) and its own routing and options. A
    worker imports every app's tasks module when it starts; a web process has imported none of
    them, so a look-up that misses there imports them (autodiscovery, as the worker does, but
    without the worker's system checks).
    """
    try:
        return celery_app.tasks[task_name]
    except NotRegistered:
        celery_app.autodiscover_tasks(force=True)
        return celery_app.tasks[task_name]


def publish(task_name: str, *args: object, countdown: float | None = None) -> None:
    """Publish the task ``task_name`` with these arguments (ids, never model instances),
    ``countdown`` seconds from now (at once by default). A broker that cannot take the message
    raises (kombu raises many kinds of error): the caller decides what that means."""
    registered_task(task_name).apply_async(args, countdown=countdown or None)


@dataclass(frozen=True)
class QueuedKey:
    """The "queued" key of a debounced batch task: while it lives a task is queued (or, for a
    task that publishes its own successor, queued or running), and callers publish nothing.

    It is taken with ``cache.add`` (SET NX with a time-to-live, on Redis) in a cache that every
    web and worker process shares (``cache``, an alias of ``CACHES``), and the task gives it back
    (``release``) before it claims any work, so whatever is stored from then on publishes the
    next task and whatever was stored before is the running task's. It expires by itself: a task
    lost with the broker delays the next one at most ``seconds`` (and the beat sweeps cover the
    rest). The key names the database, so test runs sharing a Redis never share a key. Eager
    mode needs no key: every caller publishes, and the task runs at once.
    """

    cache: str
    name: str
    seconds: float

    @property
    def key(self) -> str:
        return f"tantrix:{self.name}:{connection.settings_dict['NAME']}"

    def claim(self) -> bool:
        """Take the key: whether the caller should publish (no task is queued)."""
        if tasks_eager():
            return True
        try:
            return caches[self.cache].add(self.key, 1, timeout=self.seconds)
        except Exception:  # noqa: BLE001 - cache down: publish anyway (a duplicate is harmless)
            return True

    def keep(self) -> None:
        """Hold the key for another time-to-live: the task publishes its own successor."""
        if tasks_eager():
            return
        try:
            caches[self.cache].set(self.key, 1, timeout=self.seconds)
        except Exception:  # noqa: BLE001 - the next caller publishes a task instead
            logger.warning("could not keep the queued key %s", self.name, exc_info=True)

    def release(self) -> None:
        """Give the key back: the task starts, or its publish failed."""
        if tasks_eager():
            return
        try:
            caches[self.cache].delete(self.key)
        except Exception:  # noqa: BLE001 - the key expires by itself
            logger.warning("could not release the queued key %s", self.name, exc_info=True)


def publish_once(
    queued: QueuedKey,
    task_name: str,
    *args: object,
    countdown: float | None = None,
    held: bool = False,
) -> bool:
    """Publish the batch task unless one is queued: take the ``queued`` key (or already hold
    it: ``held``), then publish. A publish that fails gives the key back, so the next caller
    publishes again.

    Returns False when the broker could not take the message (logged, never raised): the work
    stays stored, and the next caller or the beat sweep publishes for it. True otherwise,
    including when a queued task will do the work.
    """
    if not held and not queued.claim():
        return True
    try:
        publish(task_name, *args, countdown=countdown)
    except Exception:  # noqa: BLE001 - kombu raises many kinds; all mean "not published"
        queued.release()
        logger.warning(
            "could not publish %s%r; the sweep or the next caller will",
            task_name,
            args,
            exc_info=True,
        )
        return False
    return True
