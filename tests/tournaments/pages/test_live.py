"""Live fragments and the page cache: pages poll a fragment that answers 304 until a result
changes it, say when the event is over, and a result drops the cached copy at once."""

from __future__ import annotations

import socket

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.pages import builders
from tournaments import services
from tournaments.models import Match
from tournaments.pages import cache as page_cache


def _semi(event) -> Match:
    return Match.objects.filter(event=event, round__number=1).order_by("bracket_index").first()


@pytest.mark.django_db
def test_the_fragment_answers_304_until_a_result_changes_it(client, organiser, settings):
    settings.TOURNAMENTS_LIVE_POLL_SECONDS = 7
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    url = reverse("event-live", args=[event.pk])
    assert f'data-live-url="{url}"' in page and 'data-live-seconds="7"' in page
    assert "js/live.js" in page
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "no-cache, private"
    assert "X-Live-Finished" not in first
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    semi = _semi(event)
    services.match_rule(actor=organiser, match=semi, winner_entry_id=semi.entry_b_id, reason="x")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert f"Final: {semi.entry_b.player.display_name} v Winner of SF 2" in changed.content.decode()


@pytest.mark.django_db
def test_a_finished_event_and_match_stop_the_polling(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 2, ruled_rounds=1)
    match = Match.objects.get(event=event)
    for page, fragment in (
        (reverse("event-page", args=[event.pk]), reverse("event-live", args=[event.pk])),
        (reverse("match-page", args=[match.pk]), reverse("match-live", args=[match.pk])),
    ):
        assert "data-live-url" not in client.get(page).content.decode()
        assert client.get(fragment)["X-Live-Finished"] == "1"


@pytest.mark.django_db
def test_a_running_match_page_polls_its_own_fragment(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 2, ruled_rounds=0)
    match = Match.objects.get(event=event)
    page = client.get(reverse("match-page", args=[match.pk])).content.decode()
    assert f'data-live-url="{reverse("match-live", args=[match.pk])}"' in page
    fragment = client.get(reverse("match-live", args=[match.pk]))
    assert fragment.status_code == 200 and "No game counted yet" in fragment.content.decode()


@pytest.mark.django_db
def test_pages_are_served_from_the_cache_until_a_result_changes(client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=0)
    url = reverse("event-live", args=[event.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as warm:
        client.get(url)
    tables = " ".join(q["sql"] for q in warm.captured_queries)
    assert "tournaments_match" not in tables  # the bracket came from the cache
    semi = _semi(event)
    services.match_rule(actor=organiser, match=semi, winner_entry_id=semi.entry_a_id, reason="x")
    with CaptureQueriesContext(connection) as cold:
        body = client.get(url).content.decode()
    assert "tournaments_match" in " ".join(q["sql"] for q in cold.captured_queries)
    # The page read afresh shows the ruling: the first semi-final names the winner of QF 1
    # where the cached bracket said "Winner of QF 1".
    semi_finals = body.split("Semi-finals")[1].split("Final")[0]
    assert "Winner of QF 1" not in semi_finals
    assert semi.entry_a.player.display_name in semi_finals


@pytest.mark.django_db(transaction=True)
def test_a_change_committed_elsewhere_drops_the_cached_page(client, organiser):
    """Committed in its own transaction (as a worker would): the on-commit bump refreshes."""
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    url = reverse("event-live", args=[event.pk])
    before = client.get(url)
    semi = _semi(event)
    services.match_rule(actor=organiser, match=semi, winner_entry_id=semi.entry_a_id, reason="x")
    after = client.get(url)
    assert after["ETag"] != before["ETag"]
    assert "Ruled" in after.content.decode() and "Ruled" not in before.content.decode()


@pytest.mark.django_db
def test_a_change_bumps_at_once_and_once_more_on_commit(organiser):
    """The test runs in one transaction that never commits: the immediate bump is what its
    own reads see, and one after-commit bump waits for the whole transaction, however many
    rows it changed (a draw saves a match per slot)."""
    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=0)
    start = page_cache.versions(championship_id=event.championship_id, event_id=event.pk)
    match = Match.objects.filter(event=event, round__number=1).first()
    services.match_rule(actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="x")
    during = page_cache.versions(championship_id=event.championship_id, event_id=event.pk)
    assert during != start
    flushes = [
        item[1] for item in connection.run_on_commit if getattr(item[1], "__name__", "") == "flush"
    ]
    assert len(flushes) == 1
    flushes[0]()
    assert page_cache.versions(championship_id=event.championship_id, event_id=event.pk) != during


@pytest.mark.django_db
def test_an_unreachable_cache_never_fails_a_page(client, organiser, settings):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=1)
    settings.CACHES = {
        **settings.CACHES,
        "pages": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5},
        },
    }
    # Django rebuilds the cache aliases when CACHES changes (and again when the test ends).
    response = client.get(reverse("event-page", args=[event.pk]))
    assert response.status_code == 200 and "Winner of SF 1" not in response.content.decode()
    final = Match.objects.get(event=event, round__number=2)
    services.match_rule(actor=organiser, match=final, winner_entry_id=final.entry_a_id, reason="x")
    response = client.get(reverse("event-live", args=[event.pk]))
    assert response.status_code == 200 and "Champion:" in response.content.decode()
