"""The bracket and the rankings in a real browser, in each of the site's four other languages:
the page says its language, reads with no English left but names, and prints its dates and
numbers the reader's way. Screenshots go to tmp_path (one per language and page)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from players.models import Player
from tests.i18n.english import english_left, name_words
from tournaments.models import Championship, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo():
    call_command("seed_demo", verbosity=0)
    return Event.objects.get(name="Knockout")


@pytest.mark.parametrize("language", ["ru", "hu", "cs", "tr"])
def test_the_bracket_and_the_rankings_read_in_the_language(
    browser, live_server, demo, language, tmp_path
):
    names = name_words(
        *Player.objects.values_list("display_name", flat=True),
        *Championship.objects.values_list("name", flat=True),
        *Event.objects.values_list("name", flat=True),
    )
    with translation.override(language):
        rankings_heading = gettext("Rankings")
    assert rankings_heading != "Rankings"
    context = browser.new_context(
        base_url=live_server.url,
        locale=language,
        extra_http_headers={"Accept-Language": language},
        viewport={"width": 1280, "height": 900},
    )
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        for name, path in [
            ("bracket", f"/championships/events/{demo.pk}/"),
            ("rankings", "/rankings/"),
        ]:
            tab.goto(path)
            assert tab.locator("html").get_attribute("lang") == language
            expect(tab.locator("header")).to_contain_text(rankings_heading)
            tab.screenshot(path=str(tmp_path / f"{name}-{language}.png"), full_page=True)
            text = tab.locator("body").inner_text()
            assert english_left(text, language, names) == [], (path, text[:2000])
    finally:
        context.close()
