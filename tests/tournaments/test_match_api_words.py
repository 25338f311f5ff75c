"""The match API names a match as its page does (round and sides, in the reader's language) and
gives the page and the live fragment to poll (issue 14)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments.pages import builders
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_a_match_has_its_title_status_and_pages_in_the_api(api_client, organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=1)
    semi = Match.objects.get(event=event, round__number=2, bracket_index=0)
    a, b = semi.entry_a.player.display_name, semi.entry_b.player.display_name

    answer = api_client.get(f"/api/matches/{semi.pk}/").json()
    assert answer["title"] == f"Semi-final: {a} v {b}"
    assert answer["status_label"] == semi.get_status_display()
    assert answer["page_url"] == f"/championships/matches/{semi.pk}/"
    live = api_client.get(answer["live_url"])
    assert live.status_code == 200 and a in live.content.decode()

    hungarian = api_client.get(f"/api/matches/{semi.pk}/", HTTP_ACCEPT_LANGUAGE="hu").json()
    with translation.override("hu"):
        semi_final = translation.gettext("Semi-final")
    assert semi_final != "Semi-final" and hungarian["title"].startswith(semi_final)


def test_a_page_of_matches_counts_each_event_s_rounds_once(
    api_client, organiser, django_assert_max_num_queries
):
    event = builders.knockout(organiser, builders.championship(organiser), 32, ruled_rounds=1)
    with django_assert_max_num_queries(8):
        page = api_client.get(f"/api/matches/?event={event.pk}").json()
    titles = [m["title"] for m in page["results"]]
    assert any(t.startswith("Round of 32: ") for t in titles)
    assert any(t.startswith("Round of 16: ") for t in titles)
