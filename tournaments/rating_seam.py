"""The seam between tournaments and ratings (imports point down: tournaments → ratings).

Tournaments tells ratings when an event's results change, after the transaction commits, and
lends ratings the names of its events (registered in `TournamentsConfig.ready`, read through
`ratings.hooks`), so ratings never imports tournaments.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from django.db import transaction

from ratings.services import enqueue_event_elo
from tournaments.models import Event

# Events whose results changed inside `results_batch()`: told to ratings once, at its end.
_batched: ContextVar[set[int] | None] = ContextVar("elo_batched_events", default=None)


def event_results_changed(event_id: int) -> None:
    """An event's results changed (a game counted, a ruling, a time penalty, the event
    finished): recalculate its Elo once this transaction commits. Cheap to call often: ratings
    keeps at most one recalculation per event queued."""
    batched = _batched.get()
    if batched is not None:
        batched.add(event_id)
        return
    transaction.on_commit(partial(enqueue_event_elo, event_id))


@contextmanager
def results_batch() -> Iterator[None]:
    """Many results in a row from one process (the demo, an import): tell ratings once per event
    at the end. With tasks run eagerly (`make run`) each call would otherwise recalculate the
    event's Elo at once, hundreds of times over."""
    if _batched.get() is not None:
        yield
        return
    events: set[int] = set()
    token = _batched.set(events)
    try:
        yield
    finally:
        _batched.reset(token)
        for event_id in sorted(events):
            transaction.on_commit(partial(enqueue_event_elo, event_id))


def event_names(event_ids: Iterable[int]) -> dict[int, str]:
    """People's names of these events: championship name and event name, e.g.
    "World Championship 2026 · Singles" (as `Championship.__str__`)."""
    return {
        pk: f"{championship} {year} · {name}"
        for pk, championship, year, name in Event.objects.filter(
            pk__in=list(event_ids)
        ).values_list("pk", "championship__name", "championship__year", "name")
    }
