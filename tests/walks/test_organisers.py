"""Walks of the people who run championships: an organiser runs a knockout from nothing to a
walkover settled; a controller types a table open's round; a team captain changes the lineup."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ENTRANTS = ["Pieter", "Kasia", "Lucas", "Noah"]


def test_an_organiser_runs_a_knockout_and_settles_a_walkover(site, people):
    organiser = people.tab("organiser")
    organiser.get_by_role("navigation", name="Main").get_by_role(
        "link", name="Championships"
    ).click()
    organiser.get_by_role("link", name="New championship").click()
    organiser.get_by_label("Name").fill("Autumn Cup")
    organiser.get_by_label("Year").fill("2026")
    organiser.get_by_label("Category").select_option("open")
    organiser.get_by_label("Published").check()
    organiser.locator("main").get_by_role("button").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Autumn Cup 2026")

    organiser.get_by_role("link", name="New event").click()
    organiser.get_by_label("Name").fill("Main draw")
    organiser.get_by_label("Format").select_option("knockout")
    organiser.get_by_label("Games per match").fill("1")
    organiser.locator("main").get_by_role("button").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Main draw")
    for name in ENTRANTS:
        organiser.get_by_label("Player (name or id)").fill(name)
        organiser.get_by_role("button", name="Register player").click()
        expect(organiser.locator(".messages")).to_contain_text(f"{name} is entered")

    organiser.get_by_role("link", name="Make the draw…").click()
    expect(organiser.locator("main")).to_contain_text("The draw cannot be undone")
    expect(organiser.locator(".draw-preview")).to_contain_text("The draw of seed")
    organiser.locator("main").get_by_role("button", name="Make this draw").click()
    expect(organiser.locator(".messages")).to_contain_text("The draw for Main draw is made")
    bracket = organiser.locator(".bracket-grid")
    for name in ENTRANTS:
        expect(bracket).to_contain_text(name)

    # Round 1 is moved a week later, with the reason.
    later = (dt.datetime.now() + dt.timedelta(days=21)).replace(hour=18, minute=30)
    deadlines = organiser.locator(".deadlines form").first
    deadlines.get_by_label("Deadline").fill(later.strftime("%Y-%m-%dT%H:%M"))
    deadlines.get_by_label("Reason").fill("The club is closed for a week.")
    deadlines.get_by_role("button", name="Set").click()
    expect(organiser.locator(".messages")).to_contain_text(later.strftime("%Y %H:%M"))

    # A player of the first match says their opponent did not play...
    organiser.locator(".bracket-grid a.bout").first.click()
    match_url = organiser.url
    sides = organiser.locator("table.match-score tbody tr td:first-child")
    expect(sides).to_have_count(2)
    claimant, opponent = (text.strip() for text in sides.all_inner_texts())
    player = people.tab(claimant.lower())
    player.goto(match_url)
    player.get_by_role("button", name="Claim a walkover").click()
    expect(player.locator("#match-live")).to_contain_text(
        re.compile(rf"Walkover claimed by\s*{claimant}")
    )

    # ... and the organiser settles it with a ruling.
    organiser.reload()
    organiser.locator(".organiser").get_by_label(claimant).check()
    organiser.get_by_label("Reason").fill(f"{opponent} did not play by the deadline.")
    organiser.get_by_role("button", name="Record the ruling").click()
    organiser.goto(match_url)
    expect(organiser.locator("#match-live dd.winner")).to_have_text(claimant)
    organiser.locator(".crumbs").get_by_role("link", name="Main draw").click()
    expect(organiser.locator(".bracket-grid .winner").first).to_contain_text(claimant)
    # Everything done is in the championship's audit log, with its reasons.
    organiser.locator(".organiser").get_by_role("link", name="Audit log").click()
    log = organiser.locator("table.audit")
    expect(log).to_contain_text("The club is closed for a week.")
    expect(log).to_contain_text(f"{opponent} did not play by the deadline.")


def test_a_controller_types_a_table_open_round(site, people):
    organiser = people.tab("organiser")
    organiser.goto(f"/championships/{site.manifest['demo_open']}/")
    organiser.get_by_role("link", name="New table open").click()
    organiser.get_by_label("Name").fill("Friday Table Open")
    organiser.get_by_label("System").select_option("swiss")
    organiser.get_by_label("Swiss rounds").fill("3")
    organiser.get_by_role("button", name="Create the table open").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Friday Table Open")
    event_url = organiser.url
    for name in ENTRANTS:
        organiser.get_by_label("Player (name or id)").fill(name)
        organiser.get_by_role("button", name="Register player").click()
        expect(organiser.locator(".messages")).to_contain_text(f"{name} is entered")
    organiser.get_by_role("link", name="Start the open").click()
    organiser.locator("main").get_by_role("button", name="Start the open").click()
    expect(organiser.locator(".open-rounds")).to_contain_text("Round 1")

    controller = people.tab("jana")  # a controller of the championship
    controller.goto(event_url)
    controller.get_by_role("link", name="enter results").click()
    for table, (score_a, score_b) in {1: (31, 24), 2: (19, 27)}.items():
        controller.get_by_label(f"Table {table} score A").fill(str(score_a))
        controller.get_by_label(f"Table {table} score B").fill(str(score_b))
    controller.get_by_label("Table 2 minutes A").fill("41")
    controller.get_by_role("button", name="Save the round's results").click()
    expect(controller.locator(".messages")).to_contain_text("The results of Round 1 are entered")
    # The last table of a Swiss round in: the next round is paired at once, the standings move.
    controller.goto(event_url)
    expect(controller.locator(".open-rounds")).to_contain_text("Round 2")
    standings = controller.locator("table.standings tbody tr")
    expect(standings).to_have_count(4)
    for name in ENTRANTS:
        expect(controller.locator("table.standings")).to_contain_text(name)


def test_a_captain_changes_the_board_order(site, people):
    captain = people.tab("kasia")  # captain of East in the Nations Cup
    captain.goto(f"/championships/teams/{site.manifest['team']}/")
    roster = captain.get_by_label("Roster")
    lines = roster.input_value().splitlines()
    assert len(lines) >= 5, lines
    # Boards 1 and 2 change places.
    reordered = [lines[1], lines[0], *lines[2:]]
    roster.fill("\n".join(reordered))
    captain.get_by_label("Reason").fill("Jana plays the first board this round.")
    captain.get_by_role("button", name="Save the roster").click()
    first_board = captain.locator("table.roster tbody tr").first
    expect(first_board).to_contain_text(reordered[0].strip())
    expect(captain.locator(".messages")).to_contain_text("The roster of East is changed")
    expect(captain.locator("main")).to_contain_text("Jana plays the first board this round.")
