"""The organiser's round (issue 28, item 3): a list of names entered at once, one matched by a
close suggestion and one created; the draw previewed, drawn again and made; the round console
and a reminder to a match's players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NEWCOMER = "Wilhelmina Newcomer"


def test_an_organiser_enters_a_list_previews_the_draw_and_reminds_a_match(site, people):
    organiser = people.tab("organiser")
    organiser.goto("/championships/new/")
    organiser.get_by_label("Name").fill("Winter Round Cup")
    organiser.get_by_label("Year").fill("2026")
    organiser.get_by_label("Category").select_option("open")
    organiser.get_by_label("Published").check()
    organiser.locator("main").get_by_role("button").click()
    organiser.get_by_role("link", name="New event").click()
    organiser.get_by_label("Name").fill("Round draw")
    organiser.get_by_label("Format").select_option("knockout")
    organiser.locator("main").get_by_role("button").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Round draw")

    # A pasted list: two known names, one misspelt (a close suggestion), one new with a country.
    organiser.get_by_role("link", name="Enter a list of players…").click()
    organiser.get_by_label("Names, one a line").fill(f"Kasia\nLucas\nPieterr\n{NEWCOMER}, NZ\n")
    organiser.get_by_role("button", name="Match the names").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Choose who each line is")
    lines = organiser.locator("tr.bulk-line")
    expect(lines).to_have_count(4)
    expect(lines.nth(0)).to_contain_text("this name exactly")
    misspelt = lines.nth(2)
    misspelt.get_by_label(re.compile(r"Pieter \(\w*\): a close name")).check()
    newcomer = lines.nth(3)
    expect(newcomer.get_by_label("A new player without an account, country:")).to_be_checked()
    expect(newcomer.get_by_label(f"Country of {NEWCOMER}")).to_have_value("NZ")
    organiser.get_by_role("button", name="Confirm and enter them").click()
    expect(organiser.locator(".messages")).to_contain_text("4 players are entered in Round draw.")
    expect(organiser.locator(".messages")).to_contain_text("1 new player without an account")
    for name in ("Pieter", "Kasia", "Lucas", NEWCOMER):
        expect(organiser.locator(".entries-section")).to_contain_text(name)

    # The draw is shown before it is stored; drawn again with a new seed; then made.
    organiser.get_by_role("link", name="Make the draw…").click()
    heading = organiser.locator("#preview-heading")
    expect(heading).to_contain_text("The draw of seed")
    first_seed = heading.inner_text()
    for name in ("Pieter", "Kasia", "Lucas", NEWCOMER):
        expect(organiser.locator(".draw-preview")).to_contain_text(name)
    organiser.get_by_role("button", name="Draw again").click()
    expect(heading).not_to_have_text(first_seed)
    seed = re.search(r"\d+", heading.inner_text()).group()
    organiser.get_by_role("button", name="Make this draw").click()
    expect(organiser.locator(".messages")).to_contain_text(
        f"The draw for Round draw is made (seed {seed})."
    )

    # The round console: counts, each match's deadline, a reminder, and the hour's limit.
    organiser.locator(".round-consoles a").first.click()
    expect(organiser.get_by_role("heading", level=1)).to_contain_text("console")
    expect(organiser.locator(".console-counts")).to_contain_text("Waiting")
    rows = organiser.locator("table.round-console tbody tr")
    expect(rows).to_have_count(2)  # four players in a bracket of four: no byes
    remind = rows.first.get_by_role("button", name=re.compile(r"^Remind "))
    remind.click()
    expect(organiser.locator(".messages")).to_contain_text(
        re.compile(r"reminded \(a notice and an email\)")
    )
    expect(rows.first).to_contain_text("last reminded")
    rows.first.get_by_role("button", name=re.compile(r"^Remind ")).click()
    expect(organiser.locator(".messages")).to_contain_text("one reminder an hour per match")
    organiser.get_by_role("button", name="Remind all unplayed").click()
    expect(organiser.locator(".messages")).to_contain_text(
        "The players of 1 match are reminded. 1 match is left out"
    )
