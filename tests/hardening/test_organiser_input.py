"""Regression tests: organiser input that answered 500 or was accepted when it should not be."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Entry, EntryStatus, EventStatus, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Open", year=2026, category="open", published=True
    )


def two_player_knockout(organiser, championship):
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    players = [PlayerFactory(with_user=True) for _ in range(2)]
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    return event, players


def test_the_champion_cannot_withdraw_from_a_finished_event(organiser, championship):
    event, players = two_player_knockout(organiser, championship)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    final = Match.objects.get(event=event)
    services.match_rule(
        actor=organiser, match=final, winner_entry_id=final.entry_a_id, reason="opponent absent"
    )
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED and event.champion_id == final.entry_a_id
    champion = Entry.objects.get(pk=final.entry_a_id)
    response = client_for(champion.player.user).post(
        f"/api/entries/{champion.pk}/withdraw/", {"reason": "bored"}, format="json"
    )
    assert response.status_code == 400
    assert "finished" in response.data["entry"][0]
    champion.refresh_from_db()
    assert champion.status == EntryStatus.CHAMPION
    as_organiser = client_for(organiser).post(
        f"/api/entries/{final.entry_b_id}/withdraw/", {}, format="json"
    )
    assert as_organiser.status_code == 400


def test_a_draw_starting_in_the_far_future_is_a_field_error(organiser, championship):
    event, _ = two_player_knockout(organiser, championship)
    response = client_for(organiser).post(
        f"/api/events/{event.pk}/draw/", {"start": "9999-12-25T00:00:00Z"}, format="json"
    )
    assert response.status_code == 400 and "start" in response.data
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION and not Match.objects.exists()


@pytest.mark.parametrize(
    "settings_, field",
    [
        ({"eligibility": "national", "countries": 5}, "countries"),
        ({"eligibility": "national", "countries": [5]}, "countries"),
        ({"eligibility": "national", "countries": {"a": 1}}, "countries"),
        ({"round_days": 10**9}, "round_days"),
        ({"round_days": 0}, "round_days"),
        ({"games_per_match": 10**6}, "games_per_match"),
        ({"draw_seed": -1}, "draw_seed"),
        ({"time_limit_seconds": 10**12}, "time_limit_seconds"),
    ],
)
def test_event_settings_out_of_bounds_are_field_errors(organiser, championship, settings_, field):
    response = client_for(organiser).post(
        "/api/events/",
        {"championship": championship.pk, "name": "E", "format": "knockout", **settings_},
        format="json",
    )
    assert response.status_code == 400, response.data
    assert field in response.data


@pytest.mark.parametrize("year", [0, 1987, 2201, 10**12])
def test_championship_year_out_of_range_is_refused(organiser, year):
    response = client_for(organiser).post(
        "/api/championships/",
        {"name": "Old", "year": year, "category": "open"},
        format="json",
    )
    assert response.status_code == 400 and "year" in response.data


def test_format_filter_on_events_is_a_filter_not_a_renderer(organiser, championship):
    services.event_create(actor=organiser, championship=championship, name="K", format="knockout")
    services.event_create(
        actor=organiser, championship=championship, name="S", format="swiss", swiss_rounds=3
    )
    response = client_for(None).get("/api/events/?format=knockout")
    assert response.status_code == 200
    assert [e["name"] for e in response.data["results"]] == ["K"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/?player=" + "1" + "0" * 30,
        "/api/games/?event=" + "9" * 25,
        "/api/championships/?year=" + "9" * 25,
    ],
)
def test_ids_and_numbers_no_column_can_hold_are_400_not_500(url):
    assert client_for(None).get(url).status_code == 400


def test_rounds_are_listed_under_their_event_and_linked_from_matches(organiser, championship):
    event, _ = two_player_knockout(organiser, championship)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    rounds = client_for(None).get(f"/api/events/{event.pk}/rounds/").data["results"]
    assert [r["number"] for r in rounds] == [1]
    match = client_for(None).get(f"/api/events/{event.pk}/matches/").data["results"][0]
    assert match["round"] == rounds[0]["id"]
    later = (timezone.now() + dt.timedelta(days=20)).replace(microsecond=0)
    moved = client_for(organiser).post(
        f"/api/rounds/{match['round']}/deadline/",
        {"deadline": later.isoformat(), "reason": "holidays"},
        format="json",
    )
    assert moved.status_code == 200
    assert dt.datetime.fromisoformat(moved.data["deadline"].replace("Z", "+00:00")) == later
    far = client_for(organiser).post(
        f"/api/rounds/{match['round']}/deadline/",
        {"deadline": "9999-12-31T23:00:00-05:00"},
        format="json",
    )
    assert far.status_code == 400
