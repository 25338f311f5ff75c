"""Date of birth: seen and changed only by the player and staff, on the web as in the API. The
organiser who enters a player may give it then; afterwards they neither see nor change it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from players import services
from players.models import AuditAction, AuditEntry
from tests.conftest import client_for
from tests.players.conftest import ROLES

pytestmark = pytest.mark.django_db

BORN = dt.date(2011, 2, 3)


@pytest.fixture
def junior(organiser):
    return services.player_create(
        actor=organiser, display_name="Junior Jan", country="PL", date_of_birth=BORN
    )


@pytest.mark.parametrize("who", ROLES)
def test_web_edit_form_shows_date_of_birth_only_to_staff(client, people, junior, who):
    if people[who] is not None:
        client.force_login(people[who])
    response = client.get(reverse("player-edit", args=[junior.pk]))
    # Accountless players are kept up to date by the organiser who entered them, and staff.
    expected = {"anonymous": 302, "organiser": 200, "staff": 200}.get(who, 403)
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert ("2011" in html) == (who == "staff")
        if who == "staff":
            assert 'value="2011-02-03"' in html  # the ISO date a date input can show
        assert ('name="date_of_birth"' in html) == (who == "staff")


def test_the_player_themself_sees_and_edits_it(client, user_player):
    user_player.date_of_birth = BORN
    user_player.save()
    client.force_login(user_player.user)
    html = client.get(reverse("player-edit", args=[user_player.pk])).content.decode()
    assert 'value="2011-02-03"' in html
    # Saving the form as the browser sends it keeps the date.
    response = client.post(
        reverse("player-edit", args=[user_player.pk]),
        {"display_name": user_player.display_name, "country": "DE", "date_of_birth": "2011-02-03"},
    )
    assert response.status_code == 302
    user_player.refresh_from_db()
    assert user_player.date_of_birth == BORN


def test_organiser_saving_the_web_form_leaves_date_of_birth_alone(client, organiser, junior):
    client.force_login(organiser)
    response = client.post(
        reverse("player-edit", args=[junior.pk]),
        {"display_name": "Junior Jan", "country": "CZ", "date_of_birth": "1970-01-01"},
    )
    assert response.status_code == 302
    junior.refresh_from_db()
    assert (junior.country.code, junior.date_of_birth) == ("CZ", BORN)
    page = client.get(reverse("player-detail", args=[junior.pk])).content.decode()
    assert "2011" not in page


def test_staff_change_it_on_the_web(client, staff, junior):
    client.force_login(staff)
    response = client.post(
        reverse("player-edit", args=[junior.pk]),
        {"display_name": "Junior Jan", "country": "PL", "date_of_birth": "2011-03-04"},
    )
    assert response.status_code == 302
    junior.refresh_from_db()
    assert junior.date_of_birth == dt.date(2011, 3, 4)


def test_api_refuses_it_from_organisers_whatever_the_value(organiser, junior, staff):
    for value in ("1970-01-01", "2011-02-03"):  # the right value must not be confirmed either
        response = client_for(organiser).patch(
            f"/api/players/{junior.pk}/", {"date_of_birth": value}, format="json"
        )
        assert response.status_code == 400 and "date_of_birth" in response.data
    junior.refresh_from_db()
    assert junior.date_of_birth == BORN
    ok = client_for(staff).patch(
        f"/api/players/{junior.pk}/", {"date_of_birth": "2011-03-04"}, format="json"
    )
    assert ok.status_code == 200 and ok.data["date_of_birth"] == "2011-03-04"


def test_organiser_gives_it_when_entering_and_does_not_get_it_back(organiser):
    response = client_for(organiser).post(
        "/api/players/",
        {"display_name": "Newcomer", "country": "HU", "date_of_birth": "2012-06-07"},
        format="json",
    )
    assert response.status_code == 201 and "date_of_birth" not in response.data
    from players.models import Player

    assert Player.objects.get(pk=response.data["id"]).date_of_birth == dt.date(2012, 6, 7)


def test_service_rule(organiser, junior):
    with pytest.raises(ValidationError):
        services.player_update(actor=organiser, player=junior, date_of_birth=None)


def test_changes_by_others_are_audited_without_the_private_value(organiser, staff, junior):
    services.player_update(actor=organiser, player=junior, country="CZ")
    services.player_update(actor=staff, player=junior, date_of_birth=dt.date(2011, 3, 4))
    country, born = AuditEntry.objects.filter(action=AuditAction.PLAYER_UPDATE).order_by("id")
    assert country.details == {
        "fields": ["country"],
        "before": {"country": "PL"},
        "after": {"country": "CZ"},
    }
    assert born.details["fields"] == ["date_of_birth"] and "2011" not in str(born.details)


@pytest.mark.parametrize("who", ROLES)
def test_an_accountless_player_is_edited_by_its_organiser_and_staff(people, junior, who):
    response = client_for(people[who]).patch(
        f"/api/players/{junior.pk}/", {"country": "CZ"}, format="json"
    )
    expected = {"anonymous": 401, "organiser": 200, "staff": 200}.get(who, 403)
    assert response.status_code == expected
    junior.refresh_from_db()
    assert (junior.country.code == "CZ") == (expected == 200)


def test_players_entered_before_anyone_recorded_who_stay_open_to_organisers(co_organiser):
    from tests.factories import PlayerFactory

    legacy = PlayerFactory(display_name="Legacy")  # created_by empty
    assert services.can_edit_player(co_organiser, legacy)
    assert not services.can_manage_claims(co_organiser, legacy)
