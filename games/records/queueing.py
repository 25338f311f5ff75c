"""A stored record queues its adjudication: one batch task at a time, published by name through
`tantrix_site.queueing.publish_once` (nothing here imports `games.tasks`, which imports this
module). The task gives the "queued" key back before it claims (`adjudication_schedule_release`).
"""

from __future__ import annotations

from tantrix_site.queueing import QueuedKey, publish_once


def enqueue_adjudication(record_id: int) -> bool:
    """See that an adjudication task will run for a newly stored record.

    One batch task (`games.tasks.adjudicate_pending`) is queued at a time: the submission
    publishes it only when it takes the "queued" key (`cache.add`, SET NX on Redis), and the
    task gives the key back before it claims anything, so a record stored before that is
    claimed by it, and one stored after publishes the next task. A busy site therefore queues a
    task per batch, not per record. A broker outage is logged, never raised: the record stays
    `pending` and the periodic sweep enqueues it once the broker is back.
    """
    return publish_once(adjudication_queued(), "games.tasks.adjudicate_pending", record_id)


# The "a batch task is queued" key: shared by every web and worker process (the "tasks" cache,
# settings). It expires by itself, so a queued task lost with the broker delays the next one at
# most this long (and the sweep covers the rest); a task that waits longer in the queue than
# this lets a second one be queued, which then finds nothing to claim.
ADJUDICATION_QUEUED_SECONDS = 30


def adjudication_queued() -> QueuedKey:
    return QueuedKey(
        cache="tasks", name="games:adjudication-queued", seconds=ADJUDICATION_QUEUED_SECONDS
    )


def adjudication_schedule_release() -> None:
    """Called by the batch task before it claims: records stored from now on queue a new task."""
    adjudication_queued().release()
