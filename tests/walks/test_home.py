"""Walk of a player's home (issue 28): a demo player signs in and lands on their own home,
which shows their next match (its deadline in their own time zone) and a result their opponent
reported that waits for their answer; they follow the match's link to its page, and the home
reads on a phone's width without sideways scrolling. A visitor keeps the visitor's home."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_player_signs_in_and_finds_their_next_match_and_a_report_waiting(site, people):
    home = site.manifest["home"]
    page = people.tab(home["player"])
    # Signing in lands on the home, which is theirs.
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Welcome, {home['name']}")

    next_matches = page.locator("#next-matches")
    link_name = f"Match against {home['opponent']}"
    match_link = next_matches.get_by_role("link", name=link_name)
    expect(match_link).to_have_count(1)
    row = next_matches.locator("li").filter(has=page.get_by_role("link", name=link_name))
    expect(row).to_contain_text("Final · Fireside Cup")
    # The deadline in the player's own zone (Auckland), with the zone's name.
    expect(row).to_contain_text(home["deadline"])
    expect(page.locator(".site-footer")).to_contain_text("Pacific/Auckland")

    # The opponent's report waits for their answer, and names the match.
    waiting = page.locator("#waiting-reports")
    expect(waiting.get_by_role("link", name=re.compile("^Confirm or dispute: "))).to_have_count(1)
    expect(waiting).to_contain_text(f"reported by {home['opponent']}")
    expect(waiting).to_contain_text("Final")
    # Their ratings and the events they may enter have their boxes, filled or saying why not.
    expect(page.locator("#my-ratings h2")).to_have_text("My ratings")
    expect(page.locator("#open-events h2")).to_have_text("Open for registration")

    # The match's link opens its page, where results are submitted.
    match_link.click()
    expect(page).to_have_url(re.compile(rf"/championships/matches/{home['match']}/$"))
    expect(page.locator("#match-live")).to_contain_text(home["opponent"])
    expect(page.locator("#match-live")).to_contain_text(home["name"])

    # On a phone's width the home is one column, with nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    expect(page.locator("#next-matches")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    boxes = page.locator(".home-box")
    first, second = boxes.nth(0).bounding_box(), boxes.nth(1).bounding_box()
    assert second["y"] > first["y"] and abs(second["x"] - first["x"]) < 2

    # A visitor keeps the visitor's home.
    visitor = people.tab()
    visitor.goto("/")
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Tantrix championships")
    expect(visitor.locator("#next-matches")).to_have_count(0)
