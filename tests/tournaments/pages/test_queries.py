"""Every public championship page runs a bounded number of queries whatever the size of the
event: the same count for a knockout of 8 and of 128, for 16 and 200 players in groups, cold
(cache empty) and warm (fragments cached)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.pages import builders
from tournaments.models import Match
from tournaments.pages import cache as page_cache

pytestmark = pytest.mark.django_db

# Upper bounds for an anonymous visitor, cold cache. Warm pages read the viewer-dependent
# parts only.
COLD = {"championship": 5, "event": 8, "event-live": 7, "match": 6, "match-live": 5}
WARM = {"championship": 5, "event": 2, "event-live": 2, "match": 4, "match-live": 3}


def _pages(event) -> dict[str, str]:
    match = (
        Match.objects.filter(event=event, round__number=2).order_by("bracket_index", "id").first()
        or Match.objects.filter(event=event).first()
    )
    return {
        "championship": reverse("championship-page", args=[event.championship_id]),
        "event": reverse("event-page", args=[event.pk]),
        "event-live": reverse("event-live", args=[event.pk]),
        "match": reverse("match-page", args=[match.pk]),
        "match-live": reverse("match-live", args=[match.pk]),
    }


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def _counts(client, event) -> tuple[dict[str, int], dict[str, int]]:
    cold, warm = {}, {}
    for name, url in _pages(event).items():
        page_cache.forget(championship_id=event.championship_id, event_id=event.pk)
        cold[name] = _count(client, url)
        warm[name] = _count(client, url)
    return cold, warm


def test_a_128_knockout_costs_what_an_8_knockout_costs(client, organiser):
    small = builders.knockout(organiser, builders.championship(organiser), 8)
    large = builders.knockout(organiser, builders.championship(organiser), 128)
    small_cold, small_warm = _counts(client, small)
    large_cold, large_warm = _counts(client, large)
    assert large_cold == small_cold and large_warm == small_warm
    for name, bound in COLD.items():
        assert large_cold[name] <= bound, (name, large_cold)
    for name, bound in WARM.items():
        assert large_warm[name] <= bound, (name, large_warm)


def test_a_200_player_group_stage_costs_what_16_players_cost(client, organiser):
    small = builders.group_stage(organiser, builders.championship(organiser), 16, groups=2)
    large = builders.group_stage(organiser, builders.championship(organiser), 200, groups=25)
    small_cold, small_warm = _counts(client, small)
    large_cold, large_warm = _counts(client, large)
    assert large_cold == small_cold and large_warm == small_warm
    for name, bound in COLD.items():
        assert large_cold[name] <= bound, (name, large_cold)
    for name, bound in WARM.items():
        assert large_warm[name] <= bound, (name, large_warm)


def test_each_page_of_a_128_knockout_stays_within_its_bound(
    client, organiser, django_assert_max_num_queries
):
    event = builders.knockout(organiser, builders.championship(organiser), 128, ruled_rounds=2)
    for page, url in _pages(event).items():
        page_cache.forget(championship_id=event.championship_id, event_id=event.pk)
        with django_assert_max_num_queries(COLD[page]):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(WARM[page]):
            assert client.get(url).status_code == 200


def test_group_tables_and_standings_pages_of_200_players_stay_within_bounds(
    client, organiser, django_assert_max_num_queries
):
    event = builders.group_stage(organiser, builders.championship(organiser), 200, groups=25)
    for page, url in _pages(event).items():
        page_cache.forget(championship_id=event.championship_id, event_id=event.pk)
        with django_assert_max_num_queries(COLD[page]):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(WARM[page]):
            assert client.get(url).status_code == 200
