"""Walk of a visitor who reads forecasts: a bracket's chances, its forecast table, a match's
chances, the API's forecast and how the forecasts are made (the seed's history passed the
history command's test, so the pages show them)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CHANCE = r"(?:\d+|<1|>99)%"


def test_a_visitor_reads_a_brackets_forecast_and_a_matchs_chances(site, people):
    visitor = people.tab()
    visitor.goto("/")
    visitor.get_by_role("navigation", name="Main").get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Harvest Cup").click()
    visitor.get_by_role("link", name="Knockout", exact=True).click()

    # Each first-round box has a line of the two sides' chances.
    lines = visitor.locator(".bracket-grid .bout-forecast")
    expect(lines).to_have_count(4)
    expect(lines.first).to_have_text(re.compile(rf"^{CHANCE} · {CHANCE}$"))
    # The forecast table: every entrant's chance to reach each round and to win, the strongest
    # player of the seed's history first.
    table = visitor.locator("table.forecast-table")
    expect(table.locator("tbody tr")).to_have_count(8)
    expect(table.locator("thead")).to_contain_text("Champion")
    expect(table.locator("tbody tr").first).to_contain_text("Ingrid")
    expect(visitor.locator(".forecast-quality").first).to_contain_text("Brier score")

    # A match's page says each side's chance in words.
    visitor.locator(".bracket-grid a.bout").first.click()
    line = visitor.locator(".forecast-line")
    expect(line).to_contain_text("Chance to win")
    expect(line).to_have_text(re.compile(rf"{CHANCE} · .+ {CHANCE}$"))

    # The API gives the same forecast to programs.
    answer = visitor.request.get(f"/api/events/{site.manifest['autumn_cup']}/forecast/").json()
    assert answer["shown"] is True and answer["ready"] is True
    assert len(answer["entries"]) == 8
    assert abs(sum(e["win"] for e in answer["entries"]) - 1) < 1e-9

    # How they are made and tested: the ratings document, at its forecasts section.
    visitor.get_by_role("link", name="How the forecasts are made and tested").click()
    expect(visitor.locator("#forecasts")).to_be_visible()
