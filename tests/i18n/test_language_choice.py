"""The reader's language: the browser's Accept-Language, the header's switcher (a cookie, and the
profile of a signed-in player), the profile's language over both; the API answers in it too."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _lang(response) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, "the page has no <html lang>"
    return match.group(1)


def test_accept_language_picks_the_language_and_english_is_the_fallback():
    client = Client()
    hungarian = client.get("/", HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9,en;q=0.5")
    assert _lang(hungarian) == "hu" and hungarian["Content-Language"] == "hu"
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == "en-gb"
    assert _lang(client.get("/")) == "en-gb"


def test_the_switcher_remembers_the_choice_per_browser_and_in_the_profile():
    anonymous = Client()
    response = anonymous.post(reverse("language-set"), {"language": "tr", "next": "/games/"})
    assert response.status_code == 302 and response["Location"] == "/games/"
    assert _lang(anonymous.get("/", HTTP_ACCEPT_LANGUAGE="ru")) == "tr"

    player = PlayerFactory(with_user=True)
    web = Client()
    web.force_login(player.user)
    web.post(reverse("language-set"), {"language": "cs", "next": "/"})
    player.refresh_from_db()
    assert player.language == "cs"
    # Another browser of the same player, which asks for Russian: the profile wins.
    other = Client()
    other.force_login(player.user)
    assert _lang(other.get("/", HTTP_ACCEPT_LANGUAGE="ru")) == "cs"
    # An unknown language changes nothing.
    web.post(reverse("language-set"), {"language": "xx", "next": "/"})
    player.refresh_from_db()
    assert player.language == "cs"


def test_the_profile_language_is_private_and_editable_by_the_player(client):
    player = PlayerFactory(with_user=True)
    client.force_login(player.user)
    response = client.post(
        reverse("player-edit", args=[player.pk]),
        {"display_name": player.display_name, "country": "HU", "language": "hu"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "hu"
    assert _lang(client.get("/")) == "hu"
    from tests.conftest import client_for

    assert client_for(player.user).get(f"/api/players/{player.pk}/").data["language"] == "hu"
    assert "language" not in client_for(None).get(f"/api/players/{player.pk}/").data


def test_the_api_answers_in_the_accept_language():
    from tests.conftest import client_for

    english = client_for(None).post("/api/games/records/", {}, format="json")
    russian = client_for(None).post(
        "/api/games/records/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert english.status_code == russian.status_code == 401
    assert english.data["detail"] != russian.data["detail"]
    assert re.search("[а-яА-Я]", str(russian.data["detail"]))


def test_cached_page_fragments_are_kept_per_language():
    """A fragment built for a Hungarian reader is never served to an English one."""
    from django.utils import translation

    from tournaments.pages.cache import cached_fragment

    built: list[str] = []

    def build() -> str:
        built.append(translation.get_language())
        return f"<p>{translation.get_language()}</p>"

    for language in ("hu", "en-gb", "hu"):
        with translation.override(language):
            html, _ = cached_fragment("probe", championship_id=1, event_id=1, build=build)
            assert html == f"<p>{language}</p>"
    assert built == ["hu", "en-gb"]
