import pytest
from django.contrib.auth import get_user_model

from players.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    ["/", "/players/", "/accounts/login/", "/accounts/signup/", "/championships/", "/rankings/"],
)
def test_public_pages_render_with_navigation(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    for label in ["Championships", "Rankings", "Players", "Submit a result", "Log in"]:
        assert label in html


def test_signup_creates_user_and_player_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "ingrid",
            "email": "ingrid@example.org",
            "password": "hexagon-lines-77",
            "password_again": "hexagon-lines-77",
            "display_name": "Ingrid",
            "country": "NO",
        },
    )
    assert response.status_code == 302
    player = Player.objects.get(display_name="Ingrid")
    assert player.user.username == "ingrid" and player.country.code == "NO"
    page = client.get(response["Location"]).content.decode()
    assert "Ingrid" in page and "Log out" in page


def test_signup_errors_are_shown_and_nothing_half_created(client):
    PlayerFactory(display_name="Tomas")
    response = client.post(
        "/accounts/signup/",
        {
            "username": "tomas2",
            "password": "hexagon-lines-77",
            "password_again": "hexagon-lines-77",
            "display_name": "tomas",
            "country": "NZ",
        },
    )
    assert response.status_code == 200
    assert "already taken" in response.content.decode()
    assert not get_user_model().objects.filter(username="tomas2").exists()


def test_signup_rejects_weak_password(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "weak",
            "password": "12345678",
            "password_again": "12345678",
            "display_name": "Weak",
            "country": "NZ",
        },
    )
    assert response.status_code == 200
    assert "too common" in response.content.decode()


def test_login_and_logout(client, user_player):
    response = client.post(
        "/accounts/login/", {"username": user_player.user.username, "password": "tile-and-loop-42"}
    )
    assert response.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_player_page_hides_date_of_birth_from_others(client, user_player, other_player):
    user_player.date_of_birth = "2011-02-03"
    user_player.save()
    client.force_login(other_player.user)
    page = client.get(f"/players/{user_player.pk}/").content.decode()
    assert "2011" not in page and "Edit profile" not in page
    client.force_login(user_player.user)
    page = client.get(f"/players/{user_player.pk}/").content.decode()
    assert "Feb. 3, 2011" in page or "3 Feb 2011" in page or "2011" in page
    assert "Edit profile" in page


def test_profile_edit_form(client, user_player, other_player):
    client.force_login(other_player.user)
    assert client.get(f"/players/{user_player.pk}/edit/").status_code == 403
    client.force_login(user_player.user)
    response = client.post(
        f"/players/{user_player.pk}/edit/",
        {
            "display_name": "Renamed",
            "country": "AU",
            "first_colour": "blue",
            "second_colour": "",
        },
    )
    assert response.status_code == 302
    user_player.refresh_from_db()
    assert (user_player.display_name, user_player.first_colour) == ("Renamed", "blue")


def test_admin_is_enabled_for_staff(client, admin_user):
    client.force_login(admin_user)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/players/player/").status_code == 200


def test_static_css_is_local(client):
    html = client.get("/").content.decode()
    assert "/static/css/site.css" in html
    assert "cdn" not in html.lower()


def test_organiser_enters_a_player_without_account(client, organiser, user_player):
    client.force_login(user_player.user)
    assert client.get("/players/new/").status_code == 403
    client.force_login(organiser)
    assert "New player" in client.get("/players/").content.decode()
    response = client.post("/players/new/", {"display_name": "Offline Olga", "country": "PL"})
    assert response.status_code == 302
    olga = Player.objects.get(display_name="Offline Olga")
    assert olga.user is None
    again = client.post("/players/new/", {"display_name": "offline olga", "country": "PL"})
    assert again.status_code == 200 and "already taken" in again.content.decode()
