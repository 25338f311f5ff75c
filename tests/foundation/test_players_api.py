import pytest

from players.models import Player
from tests.conftest import client_for
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_list_is_public_paginated_and_searchable(api_client):
    for name in ["Ingrid", "Tomas", "Ingeborg"]:
        PlayerFactory(display_name=name, country="NZ" if name == "Tomas" else "DE")
    response = api_client.get("/api/players/")
    assert response.status_code == 200
    assert response.data["count"] == 3
    assert {"next", "previous", "results"} <= set(response.data)
    names = [p["display_name"] for p in api_client.get("/api/players/?search=ing").data["results"]]
    assert names == ["Ingeborg", "Ingrid"]
    by_country = api_client.get("/api/players/?country=nz").data["results"]
    assert [p["display_name"] for p in by_country] == ["Tomas"]


def test_pagination_splits_pages(api_client, settings):
    PlayerFactory.create_batch(60)
    first = api_client.get("/api/players/").data
    assert len(first["results"]) == 50 and first["next"]
    second = api_client.get(first["next"]).data
    assert len(second["results"]) == 10


def test_date_of_birth_is_private(api_client, user_player, other_player, admin_user, organiser):
    user_player.date_of_birth = "2010-05-01"
    user_player.save()
    url = f"/api/players/{user_player.pk}/"
    assert "date_of_birth" not in api_client.get(url).data
    assert "date_of_birth" not in client_for(other_player.user).get(url).data
    assert "date_of_birth" not in client_for(organiser).get(url).data
    assert client_for(user_player.user).get(url).data["date_of_birth"] == "2010-05-01"
    assert client_for(admin_user).get(url).data["date_of_birth"] == "2010-05-01"
    listed = client_for(other_player.user).get("/api/players/").data["results"]
    assert all("date_of_birth" not in row for row in listed if row["id"] != other_player.pk)


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("player", 403), ("organiser", 201), ("admin", 201)],
)
def test_create_player_only_for_organisers_and_admins(
    who, expected, user_player, organiser, admin_user
):
    actor = {
        "anonymous": None,
        "player": user_player.user,
        "organiser": organiser,
        "admin": admin_user,
    }[who]
    response = client_for(actor).post(
        "/api/players/", {"display_name": "Newcomer", "country": "HU"}, format="json"
    )
    assert response.status_code == expected, response.data
    assert Player.objects.filter(display_name="Newcomer").exists() == (expected == 201)


def test_display_name_is_unique_case_insensitively(organiser):
    PlayerFactory(display_name="Csilla")
    response = client_for(organiser).post(
        "/api/players/", {"display_name": "CSILLA", "country": "HU"}, format="json"
    )
    assert response.status_code == 400
    assert "already taken" in str(response.data["display_name"])
    assert Player.objects.filter(display_name__iexact="csilla").count() == 1


def test_bad_fields_get_field_level_messages(organiser):
    response = client_for(organiser).post(
        "/api/players/",
        {"display_name": "", "country": "XX", "first_colour": "purple"},
        format="json",
    )
    assert response.status_code == 400
    assert {"display_name", "country", "first_colour"} <= set(response.data)


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("other", 403), ("organiser", 403), ("owner", 200), ("admin", 200)],
)
def test_player_edits_only_their_own_profile(
    who, expected, user_player, other_player, organiser, admin_user
):
    actor = {
        "anonymous": None,
        "other": other_player.user,
        "organiser": organiser,
        "owner": user_player.user,
        "admin": admin_user,
    }[who]
    response = client_for(actor).patch(
        f"/api/players/{user_player.pk}/", {"first_colour": "green"}, format="json"
    )
    assert response.status_code == expected
    user_player.refresh_from_db()
    assert (user_player.first_colour == "green") == (expected == 200)


def test_organiser_maintains_accountless_players(organiser, other_player):
    entered = PlayerFactory(display_name="Offline")
    ok = client_for(organiser).patch(
        f"/api/players/{entered.pk}/", {"country": "FR"}, format="json"
    )
    assert ok.status_code == 200 and ok.data["country"] == "FR"
    refused = client_for(other_player.user).patch(
        f"/api/players/{entered.pk}/", {"country": "GB"}, format="json"
    )
    assert refused.status_code == 403


def test_colour_preferences_must_differ(user_player):
    response = client_for(user_player.user).patch(
        f"/api/players/{user_player.pk}/",
        {"first_colour": "red", "second_colour": "red"},
        format="json",
    )
    assert response.status_code == 400
    assert "must differ" in str(response.data)


def test_token_login(api_client, user_player):
    response = api_client.post(
        "/api/auth/token/",
        {"username": user_player.user.username, "password": "tile-and-loop-42"},
        format="json",
    )
    assert response.status_code == 200
    token = response.data["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    edit = api_client.patch(
        f"/api/players/{user_player.pk}/", {"second_colour": "blue"}, format="json"
    )
    assert edit.status_code == 200
    bad = api_client.post(
        "/api/auth/token/",
        {"username": user_player.user.username, "password": "wrong"},
        format="json",
    )
    assert bad.status_code == 400


def test_anonymous_throttle(api_client, settings):
    from rest_framework.settings import api_settings
    from rest_framework.throttling import AnonRateThrottle

    original = AnonRateThrottle.THROTTLE_RATES
    AnonRateThrottle.THROTTLE_RATES = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/minute"}
    try:
        codes = [api_client.get("/api/players/").status_code for _ in range(4)]
    finally:
        AnonRateThrottle.THROTTLE_RATES = original
    assert codes == [200, 200, 200, 429]
