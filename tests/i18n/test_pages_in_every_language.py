"""Every page a reader can reach, read in Russian, Hungarian, Czech and Turkish, has no English
left but names (issue 15). The demo site (a knockout, a doubles event, a team cup) plus a group
stage and a Swiss Table Open is crawled by following links, as a visitor, a player, an organiser
and staff would, and the visible text of each page is checked against the catalogue's English."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from players.models import Player
from tests.i18n.english import english_left, name_words, visible_text
from tests.i18n.test_words import SWITCHER, switcher_options
from tests.tournaments.opens.helpers import open_championship, play_round, table_open
from tests.tournaments.pages import builders
from tournaments.models import Championship, Event, Round, Team

LANGUAGES = ["ru", "hu", "cs", "tr"]
SKIP = re.compile(
    r"^/(api|admin|static|accounts/logout|players/language|healthz)|\.(csv|json|png|svg)$"
)
PAGES_PER_SHAPE = 2
MAX_PAGES = 120


def _shape(path: str) -> str:
    return re.sub(r"\d+", "N", path)


def _crawl(client: Client, language: str, names: set[str]) -> dict[str, list[str]]:
    """Follows same-site links from the home page; returns the English left on each page."""
    seen_shapes: dict[str, int] = {}
    queue, visited, found = ["/"], set(), {}
    while queue and len(visited) < MAX_PAGES:
        path = queue.pop(0)
        if path in visited:
            continue
        visited.add(path)
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        page = response.content.decode()
        assert f'<html lang="{language}"' in page, path
        # Every page names each language in itself (issue 29).
        assert switcher_options(page) == SWITCHER, path
        left = english_left(visible_text(page), language, names)
        if left:
            found[path] = left
        for href in re.findall(r'href="([^"#]+)', page):
            target = urlsplit(href)
            if target.netloc or not target.path.startswith("/") or SKIP.search(target.path):
                continue
            link = target.path + (f"?{target.query}" if target.query else "")
            shape = _shape(link)
            if link not in visited and seen_shapes.get(shape, 0) < PAGES_PER_SHAPE:
                seen_shapes[shape] = seen_shapes.get(shape, 0) + 1
                queue.append(link)
    return found


@pytest.fixture
def calendar(organiser):
    """The demo site, and beside it a group stage and a Swiss Table Open one round in."""
    call_command("seed_demo", verbosity=0)
    builders.group_stage(organiser, builders.championship(organiser, "Spring Groups"), 8, 2)
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 8, swiss_rounds=3)
    play_round(controller, Round.objects.get(event=event, number=1))
    return event


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_reads_in_the_language_with_no_english_but_names(language, calendar):
    from django.contrib.auth import get_user_model

    names = name_words(
        *Player.objects.values_list("display_name", flat=True),
        *Championship.objects.values_list("name", flat=True),
        *Event.objects.values_list("name", flat=True),
        *Team.objects.values_list("name", flat=True),
        *get_user_model().objects.values_list("username", flat=True),
        "sheet",  # the ruling reason the page builders type, shown as typed
    )
    readers = {"visitor": None, "player": "ingrid", "organiser": "organiser", "staff": "admin"}
    english: dict[str, dict[str, list[str]]] = {}
    for reader, username in readers.items():
        client = Client()
        if username:
            client.force_login(get_user_model().objects.get(username=username))
        english[reader] = _crawl(client, language, names)
    left = {
        f"{reader} {path}": words
        for reader, pages in english.items()
        for path, words in pages.items()
    }
    assert not left, "\n".join(f"{page}: {words}" for page, words in sorted(left.items())[:40])


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_answers_in_the_reader_s_language(language, api_client):
    """An API error reads in the Accept-Language language; its machine code does not change."""
    response = api_client.get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    with translation.override(language):
        expected = gettext("No such game.")
    assert expected != "No such game.", f"{language} has no translation of 'No such game.'"
    assert response.json()["detail"] == expected
    assert response["Content-Language"] == language
