"""The README's pictures, taken by the browser on the `make run` site: a player's home, a
bracket, a replay and a table open's standings, saved to docs/screenshots/ (1280 px wide).

A picture is written only when its bytes differ from the one already there, so re-running the
walks leaves the checkout clean when nothing changed. Each page is also checked for what the
picture is meant to show, so a picture of an error page cannot slip into the README.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTH, HEIGHT = 1280, 800


def _save(page, name: str, *, full_page: bool = False) -> Path:
    """Save the page's picture under a fixed name; rewrite the file only if it changed."""
    # Let the fonts settle and nothing blink (the caret) for a picture that is the same each run.
    page.evaluate("document.fonts.ready")
    shot = page.screenshot(full_page=full_page, animations="disabled", caret="hide")
    path = SCREENSHOTS / f"{name}.png"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != shot:
        path.write_bytes(shot)
    assert path.stat().st_size > 10_000  # a picture of a page, not of nothing
    return path


@pytest.mark.parametrize("site", ["make_run"], indirect=True)
def test_the_readme_pictures(site, people):
    manifest = site.manifest

    # A player's home, signed in (whatever `/` shows a demo player).
    page = people.tab("lucas")
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto("/")
    expect(page.locator("main")).to_be_visible()
    _save(page, "home")

    # A knockout's bracket, with results in it.
    page.goto(f"/championships/events/{manifest['knockout']}/")
    bracket = page.locator(".bracket-section")
    expect(bracket).to_be_visible()
    bracket.scroll_into_view_if_needed()
    _save(page, "bracket")

    # A table open's standings.
    page.goto(f"/championships/events/{manifest['table_open']}/")
    expect(page.locator("main table").first).to_be_visible()
    _save(page, "standings")

    # A game's replay.
    page.goto("/games/")
    page.locator("main").get_by_role("link", name=re.compile(r"\bv\b")).first.click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("main")).to_be_visible()
    _save(page, "replay")
