"""Arranging a match through the API and the web pages (issue 30): each reader's zone, bad
input answered 400 by field with nothing stored, the organiser's list and nudge, the panel on
the match page, and the auto-acceptance task."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from players.models import Notice
from tests.conftest import client_for
from tests.tournaments.arrangements.helpers import arena
from tournaments.arrangements import services
from tournaments.arrangements.tasks import accept_unanswered_proposals
from tournaments.models import MatchArrangement, MatchProposal, NoShowClaim

pytestmark = pytest.mark.django_db

BUDAPEST = zoneinfo.ZoneInfo("Europe/Budapest")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")


@pytest.fixture
def place(organiser):
    return arena(organiser)


def _local(hours_ahead: int, zone: zoneinfo.ZoneInfo) -> dt.datetime:
    moment = timezone.now().astimezone(zone) + dt.timedelta(hours=hours_ahead)
    return moment.replace(minute=30, second=0, microsecond=0)


def test_two_zones_one_instant(place):
    """Ana (Budapest) proposes 19:30 her time; Bela (New York) reads it in his own zone, with
    his offset, and accepts it: the agreement is the same instant for both."""
    ana, bela = client_for(place.ana.user), client_for(place.bela.user)
    wall = _local(48, BUDAPEST)
    sent = ana.post(
        f"/api/matches/{place.match.pk}/proposals/",
        {"times": [wall.replace(tzinfo=None).isoformat()], "time_zone": "Europe/Budapest"},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    state = bela.get(f"/api/matches/{place.match.pk}/arrangement/").json()
    (proposal,) = state["proposals"]
    seen = dt.datetime.fromisoformat(proposal["starts_at"])
    assert seen == wall and seen.utcoffset() == wall.astimezone(NEW_YORK).utcoffset()
    accepted = bela.post(f"/api/matches/{place.match.pk}/proposals/{proposal['id']}/accept/")
    assert accepted.status_code == 201, accepted.content
    for client, zone in ((ana, BUDAPEST), (bela, NEW_YORK)):
        agreed = client.get(f"/api/matches/{place.match.pk}/arrangement/").json()["agreed"]
        moment = dt.datetime.fromisoformat(agreed["starts_at"])
        assert moment == wall and moment.utcoffset() == wall.astimezone(zone).utcoffset()
    # The public reads the agreed time, not the proposals.
    public = client_for(None).get(f"/api/matches/{place.match.pk}/arrangement/").json()
    assert public["agreed"]["starts_at"] and "proposals" not in public


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"times": ["2026-12-05T19:30"], "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"times": ["yesterday"]}, "times"),
        ({"times": ["2020-01-01T10:00Z"]}, "times"),  # in the past
        ({"times": ["2027-12-01T10:00Z"]}, "times"),  # after the round's deadline
        ({"times": []}, "times"),
    ],
)
def test_bad_times_are_400_by_field_and_nothing_is_stored(place, body, field):
    answer = client_for(place.ana.user).post(
        f"/api/matches/{place.match.pk}/proposals/", body, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert field in answer.json()
    assert not MatchProposal.objects.exists()


def test_accepting_ones_own_proposal_is_400_and_outsiders_are_403(place, outsider):
    made = services.proposals_make(
        actor=place.ana.user, match=place.match, times=[_local(30, BUDAPEST)]
    )
    url = f"/api/matches/{place.match.pk}/proposals/{made[0].pk}/accept/"
    own = client_for(place.ana.user).post(url)
    assert own.status_code == 400 and "proposal" in own.json()
    assert client_for(outsider).post(url).status_code == 403
    assert client_for(place.controller).post(url).status_code == 403
    assert not MatchArrangement.objects.exists()


def test_the_organiser_sets_lists_and_nudges(place, organiser):
    client = client_for(organiser)
    listed = client.get(f"/api/events/{place.event.pk}/arrangements/").json()
    assert [row["match"] for row in listed] == [place.match.pk]
    nudged = client.post(
        f"/api/events/{place.event.pk}/arrangements/nudge/",
        {"matches": [place.match.pk]},
        format="json",
    )
    assert nudged.json() == {"nudged": 1}
    assert Notice.objects.filter(user__in=[place.ana.user, place.bela.user]).count() == 2
    wall = _local(20, NEW_YORK)
    put = client.put(
        f"/api/matches/{place.match.pk}/arrangement/",
        {"starts_at": wall.replace(tzinfo=None).isoformat(), "time_zone": "America/New_York"},
        format="json",
    )
    assert put.status_code == 201, put.content
    assert MatchArrangement.objects.get().starts_at == wall
    assert client.get(f"/api/events/{place.event.pk}/arrangements/").json() == []
    refused = client_for(place.ana.user).get(f"/api/events/{place.event.pk}/arrangements/")
    assert refused.status_code == 403
    bad = client.get(f"/api/events/{place.event.pk}/arrangements/?show=never")
    assert bad.status_code == 400 and "show" in bad.json()


def test_the_response_window_and_the_task(place, organiser):
    policy = client_for(organiser).put(
        f"/api/events/{place.event.pk}/arrangements/policy/",
        {"response_hours": 1},
        format="json",
    )
    assert policy.json() == {"response_hours": 1}
    services.proposals_make(actor=place.ana.user, match=place.match, times=[_local(30, BUDAPEST)])
    MatchProposal.objects.update(created=timezone.now() - dt.timedelta(hours=2))
    assert accept_unanswered_proposals.delay().get() == 1
    assert accept_unanswered_proposals.delay().get() == 0
    assert MatchArrangement.objects.get().source == "auto"


def test_availability_through_the_api(place):
    client = client_for(place.ana.user)
    put = client.put(
        "/api/arrangements/availability/",
        {
            "time_zone": "Europe/Budapest",
            "windows": [{"weekday": 2, "starts": "18:00", "ends": "22:00"}],
        },
        format="json",
    )
    assert put.status_code == 200, put.content
    assert put.json()["windows"] == [{"weekday": 2, "starts": "18:00:00", "ends": "22:00:00"}]
    bad = client.put(
        "/api/arrangements/availability/",
        {"time_zone": "Nowhere/Land", "windows": []},
        format="json",
    )
    assert bad.status_code == 400 and "time_zone" in bad.json()
    assert client.get("/api/arrangements/availability/").json()["time_zone"] == "Europe/Budapest"


def test_the_match_page_panel_and_the_web_forms(place):
    web = Client()
    web.force_login(place.ana.user)
    page = web.get(reverse("match-page", args=[place.match.pk])).content.decode()
    assert (
        'id="arrangement"' in page and reverse("arrangement-propose", args=[place.match.pk]) in page
    )
    wall = _local(26, BUDAPEST)  # typed in Ana's own zone
    done = web.post(
        reverse("arrangement-propose", args=[place.match.pk]),
        {"time_1": wall.strftime("%Y-%m-%dT%H:%M"), "note": "evening"},
    )
    assert done.status_code == 302
    assert MatchProposal.objects.get().starts_at == wall
    again = web.post(
        reverse("arrangement-propose", args=[place.match.pk]), {"time_1": "2020-01-01T10:00"}
    )
    assert again.status_code == 200 and "has passed" in again.content.decode()
    other = Client()
    other.force_login(place.bela.user)
    bela_page = other.get(reverse("match-page", args=[place.match.pk])).content.decode()
    local = wall.astimezone(NEW_YORK)
    assert f"{local:%H}:{local:%M}" in bela_page and "Accept this time" in bela_page
    proposal = MatchProposal.objects.get()
    assert (
        other.post(
            reverse("arrangement-accept", args=[place.match.pk]), {"proposal": proposal.pk}
        ).status_code
        == 302
    )
    assert "Agreed time" in web.get(reverse("match-page", args=[place.match.pk])).content.decode()


def test_a_no_show_on_the_web_is_before_the_controller(place):
    MatchArrangement.objects.create(
        match=place.match,
        starts_at=timezone.now() - dt.timedelta(hours=2),
        agreed_at=timezone.now() - dt.timedelta(days=1),
        source="accepted",
    )
    web = Client()
    web.force_login(place.ana.user)
    assert (
        web.post(
            reverse("arrangement-no-show", args=[place.match.pk]), {"message": "Waited an hour."}
        ).status_code
        == 302
    )
    claim = NoShowClaim.objects.get()
    other = Client()
    other.force_login(place.bela.user)
    assert (
        other.post(
            reverse("arrangement-no-show-reply", args=[place.match.pk]),
            {"claim": claim.pk, "message": "Power cut."},
        ).status_code
        == 302
    )
    judge = Client()
    judge.force_login(place.controller)
    page = judge.get(reverse("match-page", args=[place.match.pk])).content.decode()
    assert "Waited an hour." in page and "Power cut." in page
    assert reverse("match-rule-form", args=[place.match.pk]) in page
