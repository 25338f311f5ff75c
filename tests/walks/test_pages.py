"""A visitor reads the pages issue 28 reshaped: a table open's one standings table with its TPs
to one decimal place, the Demo Open's bracket across the screen with its zoom, and a doubles
game named pair against pair."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CUT_NAMES = """() => [...document.querySelectorAll('.bout .name, .bracket-round h3')].filter(
    (e) => e.scrollWidth > e.clientWidth + 0.5).map((e) => e.textContent.trim())"""


def test_a_visitor_reads_one_standings_table_a_bracket_and_a_doubles_game(site, people):
    visitor = people.tab()
    visitor.goto("/")
    nav = visitor.get_by_role("navigation", name="Main")

    # The table open: one table, ranked on its tie-breaks, every TP with one decimal place.
    nav.get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Spring Table Open").click()
    visitor.get_by_role("link", name="Open", exact=True).click()
    expect(visitor.locator("table.standings")).to_have_count(1)
    expect(visitor.locator("table.group-table")).to_have_count(0)
    expect(visitor.get_by_text("Swiss standings")).to_have_count(0)
    standings = visitor.locator("table.standings")
    expect(standings.locator("tbody tr")).to_have_count(4)
    tp_column = standings.locator("thead th").all_inner_texts().index("TP total") + 1
    for cell in standings.locator(f"tbody td:nth-child({tp_column})").all_inner_texts():
        assert re.fullmatch(r"\d+\.\d", cell.strip()), cell
    for score in visitor.locator(".match-row .score").all_inner_texts():
        assert re.fullmatch(r"\d+\.\d–\d+\.\d", score.strip()), score

    # The Demo Open's bracket: the page's width, no name cut, zoomed by its buttons; no "swipe".
    nav.get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Demo Open").click()
    visitor.get_by_role("link", name="Knockout", exact=True).click()
    expect(visitor.locator(".bracket-grid")).to_contain_text("Final")
    assert visitor.evaluate(CUT_NAMES) == []
    expect(visitor.get_by_text("Swipe sideways")).to_be_hidden()
    level = visitor.locator(".bracket-zoom-level")
    visitor.get_by_role("button", name="Zoom in").click()
    expect(level).to_have_text("125%")
    visitor.get_by_role("button", name="Actual size").click()
    expect(level).to_have_text("100%")

    # The doubles: a played match's game reads pair against pair, won by a pair.
    nav.get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Demo Open").click()
    visitor.get_by_role("link", name="Doubles", exact=True).click()
    played = visitor.locator(".bracket-grid a.bout").filter(has=visitor.locator(".tps:not(:empty)"))
    played.first.click()
    title = visitor.get_by_role("heading", level=1)
    expect(title).to_have_text(re.compile(r"^.+ & .+ v .+ & .+$"))
    visitor.locator("table.games").get_by_role("link", name="Game 1").click()
    heading = visitor.get_by_role("heading", level=1)
    expect(heading).to_have_text(re.compile(r"^[^&]+ & [^&]+ v [^&]+ & [^&]+$"))
    assert " v " in heading.inner_text() and heading.inner_text().count(" v ") == 1
    lead = visitor.locator("p.lead")
    expect(lead).not_to_contain_text("and partner")
    if "draw" not in lead.inner_text().lower():
        expect(lead).to_contain_text(re.compile(r"Won by [^&·]+ & [^&·]+ ·"))
