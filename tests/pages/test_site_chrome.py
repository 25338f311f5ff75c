"""Site chrome: error pages with DEBUG off, the favicon, navigation, forms without a default
country, the home page's words, the documents and the offline API explorer."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import RequestFactory

from tantrix_site.http.answers import server_error
from tests.factories import PlayerFactory, make_organiser

pytestmark = pytest.mark.django_db


def test_404_is_site_styled_with_debug_off(client, settings):
    settings.DEBUG = False
    response = client.get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert 'class="site-header"' in html and "css/site.css" in html and "Nothing here" in html
    api = client.get("/api/no/such/thing/")
    assert api.status_code == 404 and api.json() == {"detail": "Not found."}


def test_403_is_site_styled_and_says_why(client, settings):
    settings.DEBUG = False
    owner, other = (PlayerFactory(with_user=True) for _ in range(2))
    client.force_login(owner.user)
    client.post("/games/submit/", {"record": "not json"})
    from games.models import GameRecord

    record = GameRecord.objects.get()
    client.force_login(other.user)
    response = client.get(f"/games/records/{record.pk}/")
    html = response.content.decode()
    assert response.status_code == 403
    assert 'class="site-header"' in html
    assert "Only the submitter, the players in this game and staff may see it." in html


def test_500_is_site_styled_without_touching_the_database(django_assert_num_queries):
    request = RequestFactory().get("/some/page/")
    with django_assert_num_queries(0):
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert "css/site.css" in html and 'class="site-header"' in html
    api = server_error(RequestFactory().get("/api/x/"))
    assert json.loads(api.content) == {"detail": "Something went wrong on our side."}


def test_favicon_is_linked_and_served(client):
    html = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in html
    assert finders.find("favicon.svg")


def test_header_links_every_page_a_user_can_reach(client):
    anonymous = client.get("/").content.decode()
    for href in ("/championships/", "/rankings/", "/players/", "/games/", "/accounts/login/"):
        assert f'href="{href}"' in anonymous, href
    assert 'href="/games/records/"' not in anonymous
    player = PlayerFactory(with_user=True)
    client.force_login(player.user)
    signed_in = client.get("/").content.decode()
    header = signed_in.split("</header>")[0]
    for href in ("/games/", "/games/records/", "/games/submit/", f"/players/{player.pk}/"):
        assert f'href="{href}"' in header, href
    assert "My records" in header


def _country_select(html: str) -> str:
    return html.split('name="country"')[1].split("</select>")[0]


def test_sign_up_has_no_default_country_and_requires_one(client):
    select = _country_select(client.get("/accounts/signup/").content.decode())
    assert '<option value="" selected>Choose a country</option>' in select
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "password": "tile-and-loop-42",
            "password_again": "tile-and-loop-42",
            "display_name": "Newbie",
            "country": "",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["country"] == ["This field is required."]


def test_new_player_form_has_no_default_country(client):
    client.force_login(make_organiser())
    html = client.get("/players/new/").content.decode()
    assert '<option value="" selected>Choose a country</option>' in _country_select(html)
    response = client.post("/players/new/", {"display_name": "Offline Olga", "country": ""})
    assert response.status_code == 200 and "country" in response.context["form"].errors


def test_home_page_says_what_is_true_of_the_ranking(client):
    html = client.get("/").content.decode()
    assert "1000-point ranking" not in html
    assert "start at 500" in html


def test_record_format_page_renders_the_document(client):
    html = client.get("/docs/record-format/").content.decode()
    assert "<h1" in html and "Game records, verdicts and positions" in html
    assert "<table" in html and "<code>tantrix-game/1</code>" in html
    assert 'href="/docs/rules/"' in html
    assert client.get("/docs/rules/").status_code == 200
    assert client.get("/docs/nothing/").status_code == 404


def test_submit_page_links_the_record_format_not_the_api(client):
    client.force_login(PlayerFactory(with_user=True).user)
    html = client.get("/games/submit/").content.decode()
    assert '<a href="/docs/record-format/">tantrix-game/1</a>' in html


def test_api_docs_are_served_from_static_files_under_the_csp(client):
    response = client.get("/api/docs/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "<script>" not in html and "<style>" not in html
    assert "cdn" not in html.lower() and "@latest" not in html
    for asset in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"):
        assert f"/static/drf_spectacular_sidecar/swagger-ui-dist/{asset}" in html
        assert finders.find(f"drf_spectacular_sidecar/swagger-ui-dist/{asset}")
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and b"SwaggerUIBundle" in script.content


def test_requirements_pin_the_sidecar():
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[2] / "requirements.txt").read_text().splitlines()
    assert any(line.startswith("drf-spectacular-sidecar==") for line in lines)
