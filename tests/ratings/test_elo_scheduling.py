"""Publishing an event's Elo recalculation: at most one queued per event under a burst."""

from __future__ import annotations

import pytest

from ratings.services import scheduling
from ratings.tasks import recalculate_event_elo
from tantrix_site import queueing

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    """Tasks go to a broker (not eager); record what would be published."""
    calls: list[tuple[tuple, dict]] = []
    monkeypatch.setattr(queueing, "tasks_eager", lambda: False)
    monkeypatch.setattr(
        recalculate_event_elo, "apply_async", lambda args, **kw: calls.append((args, kw))
    )
    for event_id in (41, 42):
        scheduling.elo_event_release(event_id)
    yield calls
    for event_id in (41, 42):
        scheduling.elo_event_release(event_id)


def test_a_burst_queues_one_recalculation_per_event(published):
    for _ in range(5):
        assert scheduling.enqueue_event_elo(41) is True
    assert scheduling.enqueue_event_elo(42) is True
    assert published == [
        ((41,), {"countdown": scheduling.ELO_EVENT_GATHER_SECONDS}),
        ((42,), {"countdown": scheduling.ELO_EVENT_GATHER_SECONDS}),
    ]
    # The task gives the key back as it starts: a change from then on queues the next one.
    scheduling.elo_event_release(41)
    assert scheduling.enqueue_event_elo(41) is True
    assert [args for args, _ in published] == [(41,), (42,), (41,)]


def test_a_failed_publish_gives_the_key_back(published, monkeypatch):
    def down(args, **kw):
        raise ConnectionError("broker down")

    monkeypatch.setattr(recalculate_event_elo, "apply_async", down)
    assert scheduling.enqueue_event_elo(41) is False
    monkeypatch.setattr(
        recalculate_event_elo, "apply_async", lambda args, **kw: published.append((args, kw))
    )
    assert scheduling.enqueue_event_elo(41) is True
    assert [args for args, _ in published] == [(41,)]
