"""A junior championship from creation to champion: eligibility by date of birth on the cut-off
date, refusals that never give away a date of birth or an age, and the junior standings and
champion on the championship page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.tournaments.helpers import submit_match_game
from tournaments import selectors, services
from tournaments.models import EntryStatus, EventStatus, Match, MatchStatus

pytestmark = pytest.mark.django_db

CUTOFF = dt.date(2026, 7, 1)


def _no_birth_or_age(message: str, born: dt.date, age: int) -> None:
    """The message names neither the date of birth (in any usual form) nor the age."""
    for form in (
        born.isoformat(),
        str(born.year),
        f"{born:%d %B}",
        f"{born.day} {born:%B}",
        f"{born:%d/%m}",
        f"{born:%m/%d}",
    ):
        assert form not in message, (form, message)
    assert not re.search(rf"\b{age}\b", message), message
    assert "age " + str(age) not in message


@pytest.fixture
def junior_event(organiser):
    championship = services.championship_create(
        actor=organiser,
        name="World Junior Championship",
        year=2026,
        category="junior",
        published=True,
    )
    return services.event_create(
        actor=organiser,
        championship=championship,
        name="Juniors",
        format="knockout",
        eligibility="junior",
        junior_age_limit=16,
        cutoff_date=CUTOFF,
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin="0.1",
    )


def test_a_junior_championship_to_its_champion(
    client, organiser, junior_event, django_capture_on_commit_callbacks
):
    juniors = [
        PlayerFactory(with_user=True, date_of_birth=dt.date(2011 + i % 3, 1 + i, 10))
        for i in range(6)
    ]
    # Players register themselves; the organiser enters the rest, once each has confirmed
    # their age (their date of birth is theirs: the organiser is not told it, nor whether it
    # fits, until they do).
    for player in juniors[:3]:
        response = client_for(player.user).post(f"/api/events/{junior_event.pk}/register/", {})
        assert response.status_code == 201, response.content
    for player in juniors[3:]:
        with pytest.raises(ValidationError, match="has not confirmed"):
            services.entry_register(actor=organiser, event=junior_event, player=player)
        confirmed = client_for(player.user).post(f"/api/events/{junior_event.pk}/confirm-age/")
        assert confirmed.status_code == 201, confirmed.content
        services.entry_register(actor=organiser, event=junior_event, player=player)

    # Too old on the cut-off date (17): refused, without the date of birth or the age.
    born = dt.date(2009, 3, 14)
    old = PlayerFactory(with_user=True, display_name="Oldie", date_of_birth=born)
    response = client_for(old.user).post(f"/api/events/{junior_event.pk}/register/", {})
    assert response.status_code == 400
    message = response.json()["player"][0]
    assert "not eligible for this junior event" in message and "Oldie" in message
    _no_birth_or_age(message, born, 17)
    # The organiser's form is told only that Oldie has not confirmed their age (the same
    # answer as for an eligible player who has not), and shows no date of birth either.
    client.force_login(organiser)
    page = client.post(
        reverse("event-register-player", args=[junior_event.pk]), {"player": "Oldie"}
    ).content.decode()
    assert "has not confirmed that they may play in this junior event" in page
    assert "not eligible" not in page
    _no_birth_or_age(page.split("<main", 1)[-1], born, 17)
    # Sixteen on the cut-off day itself is too old; a day younger is in (players without an
    # account whom the organiser entered with their dates of birth: the organiser is told).
    exactly = PlayerFactory(date_of_birth=dt.date(2010, 7, 1), created_by=organiser)
    with pytest.raises(Exception, match="not eligible"):
        services.entry_register(actor=organiser, event=junior_event, player=exactly)
    services.entry_register(
        actor=organiser,
        event=junior_event,
        player=PlayerFactory(date_of_birth=dt.date(2010, 7, 2), created_by=organiser),
    )
    # No date of birth: refused with what to do about it.
    unknown = PlayerFactory(with_user=True, display_name="Nobirth")
    response = client_for(unknown.user).post(f"/api/events/{junior_event.pk}/register/", {})
    assert response.status_code == 400
    assert "has no date of birth on their profile" in response.json()["player"][0]

    services.draw_generate(actor=organiser, event=junior_event, draw_seed=16)
    for _ in range(30):
        open_matches = list(
            Match.objects.filter(
                event=junior_event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
            ).select_related("entry_a__player__user", "entry_b__player")
        )
        if not open_matches:
            break
        for match in open_matches:
            if match.state_reason == "level_needs_ruling":
                services.match_rule(
                    actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="lot"
                )
                continue
            actor = match.entry_a.player.user or organiser
            with django_capture_on_commit_callbacks(execute=True):
                assert submit_match_game(actor, match).accepted
    junior_event.refresh_from_db()
    assert junior_event.status == EventStatus.FINISHED
    champion = junior_event.champion
    assert champion.status == EntryStatus.CHAMPION

    places = selectors.final_places(junior_event)
    assert places[0] == (1, champion) and places[1][0] == 2
    assert [p for p, _ in places] == [1, 2, 3, 3, 5, 5, 5]
    client.logout()
    page = client.get(
        reverse("championship-page", args=[junior_event.championship_id])
    ).content.decode()
    assert "Junior champion" in page and "Junior standings" in page
    assert champion.name in page
    assert junior_event.championship.get_category_display() == "Junior championship"


def test_a_junior_pair_needs_both_players_eligible(organiser, junior_event):
    """A player asks an older partner: the request waits for the partner (the asker is told
    nothing of the partner's age), and the partner's own confirmation is refused, with the
    reason, to them."""
    doubles = services.event_create(
        actor=organiser,
        championship=junior_event.championship,
        name="Junior doubles",
        format="knockout",
        entry_kind="pair",
        eligibility="junior",
        cutoff_date=CUTOFF,
    )
    young = PlayerFactory(with_user=True, date_of_birth=dt.date(2012, 5, 5))
    born = dt.date(2008, 11, 30)
    older = PlayerFactory(with_user=True, display_name="Elder", date_of_birth=born)
    response = client_for(young.user).post(
        f"/api/events/{doubles.pk}/register-pair/", {"partner": older.pk}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "pending"
    entry_id = response.json()["id"]
    response = client_for(older.user).post(f"/api/entries/{entry_id}/confirm-pair/")
    assert response.status_code == 400
    message = response.json()["entry"][0]
    assert "Elder" in message and "not eligible" in message
    _no_birth_or_age(message, born, 17)
