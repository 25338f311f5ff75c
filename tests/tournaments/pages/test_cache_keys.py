"""Every cached page part and every validator is keyed on everything that changes the answer:
the reader's language, their time zone, and what they may see (issue 26, defect 11: an English
request sent with the Russian ETag got 304 and kept the Russian fragment).

The cached parts (tournaments/pages/fragments.py, games/replays.py) and what each depends on:

| part                  | validator | language | time zone         | viewer                 |
|-----------------------|-----------|----------|-------------------|------------------------|
| event live fragment   | ETag      | words    | round deadlines   | who may see the event  |
| match live fragment   | ETag      | words    | deadline, decided | who may see the match  |
| event entries         | -         | words    | (no times)        | organisers' variant    |
| championship's events | -         | words    | (no times)        | who may see it         |
| game replay           | -         | labels   | (no times)        | who may see the game   |
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.cache import has_vary_header

from games.models import Game
from tests.factories import PlayerFactory
from tests.tournaments.helpers import submit_match_game
from tests.tournaments.pages import builders
from tournaments.models import Championship, Match, Round

pytestmark = pytest.mark.django_db

DEADLINE = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


def _event(organiser, *, published: bool = True):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    Round.objects.filter(event=event).update(deadline=DEADLINE)
    Championship.objects.filter(pk=event.championship_id).update(published=published)
    return event


def _reader(*, time_zone: str = "", language: str = "") -> Client:
    client = Client()
    client.force_login(PlayerFactory(with_user=True, time_zone=time_zone, language=language).user)
    return client


def _live_urls(event) -> dict[str, str]:
    match = Match.objects.filter(event=event, round__number=1).order_by("bracket_index").first()
    return {
        "event": reverse("event-live", args=[event.pk]),
        "match": reverse("match-live", args=[match.pk]),
    }


# --- The live fragments: their answer and their ETag -----------------------------------------


@pytest.mark.parametrize("fragment", ["event", "match"])
def test_another_language_gets_its_own_fragment_and_etag(organiser, fragment):
    url = _live_urls(_event(organiser))[fragment]
    client = Client()
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.status_code == 200 and "Срок" in russian.content.decode()
    assert (
        client.get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=russian["ETag"]).status_code
        == 304
    )

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=russian["ETag"])
    assert english.status_code == 200, "the Russian ETag must not keep the Russian fragment"
    assert english["ETag"] != russian["ETag"]
    assert "Deadline" in english.content.decode() and "Срок" not in english.content.decode()

    # The profile's language counts as much as the browser's.
    hungarian = _reader(language="hu").get(url, HTTP_IF_NONE_MATCH=english["ETag"])
    assert hungarian.status_code == 200 and hungarian["ETag"] not in (
        english["ETag"],
        russian["ETag"],
    )


@pytest.mark.parametrize("fragment", ["event", "match"])
def test_another_time_zone_gets_its_own_fragment_and_etag(organiser, fragment):
    url = _live_urls(_event(organiser))[fragment]
    tokyo, new_york = _reader(time_zone="Asia/Tokyo"), _reader(time_zone="America/New_York")
    first = tokyo.get(url)
    assert "30 Nov 2026, 21:00 JST" in first.content.decode()
    assert tokyo.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    other = new_york.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert other.status_code == 200, "Tokyo's ETag must not keep Tokyo's times in New York"
    assert "30 Nov 2026, 07:00 EST" in other.content.decode() and other["ETag"] != first["ETag"]
    site = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])  # a visitor: the site's zone
    assert site.status_code == 200 and site["ETag"] not in (first["ETag"], other["ETag"])


@pytest.mark.parametrize("fragment", ["event", "match"])
def test_an_etag_never_opens_a_fragment_to_someone_who_may_not_see_it(organiser, fragment):
    """An unpublished championship: its organiser's ETag gets a visitor and another player
    nothing but 404; readers who may see it and read it alike get the same fragment (nothing in
    it depends on who they are), so they may share its ETag."""
    url = _live_urls(_event(organiser, published=False))[fragment]
    own = Client()
    own.force_login(organiser)
    first = own.get(url)
    assert first.status_code == 200
    for outsider in (Client(), _reader()):
        assert outsider.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404

    public_url = _live_urls(_event(organiser))[fragment]
    as_organiser = own.get(public_url)
    as_visitor = Client().get(public_url, HTTP_IF_NONE_MATCH=as_organiser["ETag"])
    assert as_visitor.status_code == 304
    assert Client().get(public_url).content == as_organiser.content


@pytest.mark.parametrize("fragment", ["event", "match"])
def test_fragment_answers_say_what_they_vary_on_and_stay_private(organiser, fragment):
    url = _live_urls(_event(organiser))[fragment]
    client = Client()
    full = client.get(url)
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=full["ETag"])
    assert not_modified.status_code == 304
    for response in (full, not_modified):
        assert has_vary_header(response, "Accept-Language") and has_vary_header(response, "Cookie")
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert directives == {"no-cache", "private"}
        assert response["ETag"] == full["ETag"]
    # The page starts polling with the ETag of the fragment it shows: the first poll is a 304.
    page = reverse(f"{fragment}-page", args=[url.split("/")[-3]])
    assert f"data-live-version={full['ETag']}" in client.get(page).content.decode()


# --- The cached parts of whole pages -----------------------------------------------------------


def test_the_event_page_keeps_an_entries_table_per_language_and_per_viewer(organiser):
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    page = reverse("event-page", args=[event.pk])
    own = Client()
    own.force_login(organiser)
    assert "Withdraw" in own.get(page).content.decode()  # built and cached for organisers
    visitor = Client().get(page)
    assert "Withdraw" not in visitor.content.decode()
    assert has_vary_header(visitor, "Cookie") and has_vary_header(visitor, "Accept-Language")
    russian = Client().get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Способ посева" in russian
    english = Client().get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seeded by" in english


def test_the_championship_page_keeps_its_events_per_language_and_shows_them_to_who_may_see(
    organiser,
):
    event = _event(organiser, published=False)
    page = reverse("championship-page", args=[event.championship_id])
    own = Client()
    own.force_login(organiser)
    assert event.name in own.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert Client().get(page).status_code == 404  # the cached events list stays behind it
    assert _reader().get(page).status_code == 404
    english = own.get(page, HTTP_ACCEPT_LANGUAGE="en")
    assert "Events" in english.content.decode() and "Соревнования" not in english.content.decode()
    assert has_vary_header(english, "Cookie") and has_vary_header(english, "Accept-Language")


def test_the_replay_is_kept_per_language_and_shown_to_who_may_see_the_game(
    organiser, django_capture_on_commit_callbacks
):
    event = _event(organiser, published=False)
    match = Match.objects.filter(event=event, round__number=1).first()
    with django_capture_on_commit_callbacks(execute=True):  # adjudicated and counted
        submission = submit_match_game(organiser, match, seed=3, confirm=False)
    assert Game.objects.get(record=submission.record).event_id == event.pk
    page = reverse("game-detail", args=[Game.objects.get(record=submission.record).pk])
    own = Client()
    own.force_login(organiser)
    russian = own.get(page, HTTP_ACCEPT_LANGUAGE="ru")
    # The board's SVG, cached, names each placement in the reader's language.
    assert russian.status_code == 200 and "Размещение 1: плитка" in russian.content.decode()
    english = own.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Placement 1: tile" in english and "Размещение" not in english
    assert Client().get(page).status_code == 404
