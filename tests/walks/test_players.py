"""Walks of players: signing up and setting up one's profile; a match result reported and
confirmed; a result disputed, ruled by a controller and reopened by an organiser."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.engine import selfplay

pytestmark = pytest.mark.browser


def test_a_newcomer_signs_up_and_sets_up_their_profile(site, people):
    page = people.tab()
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Email").fill("newcomer@example.org")
    page.get_by_label("Password", exact=True).fill("hexagon-lines-77")
    page.get_by_label("Password again").fill("hexagon-lines-77")
    page.get_by_label("Display name").fill("Nova Newcomer")
    page.get_by_label("Country").select_option("NZ")
    page.get_by_role("button", name="Create my account").click()
    # Signed up and in, on one's own profile, which lists what waits for one's confirmation.
    expect(page.get_by_role("heading", level=1)).to_have_text("Nova Newcomer")
    expect(page.locator("#player-reports")).to_contain_text("Nothing is waiting for you.")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Waiting for my confirmation")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Nova Newcomer").click()
    page.get_by_role("link", name="Edit profile").click()
    page.get_by_label("Date of birth").fill("2011-03-04")
    page.get_by_label("Time zone").select_option("Europe/Prague")
    page.locator("main").get_by_label("Language").select_option("cs")
    page.get_by_role("button", name="Save").click()
    # The profile now speaks Czech, shows times in Prague's zone and the private date of birth.
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.get_by_role("heading", level=1)).to_have_text("Nova Newcomer")
    expect(page.locator(".site-footer")).to_contain_text("Europe/Prague")
    expect(page.locator(".facts")).to_contain_text("2011")
    expect(page.locator("#player-reports")).to_be_visible()


def _record(seed: int, names: list[str]) -> str:
    """A complete, legal game between these two players (the engine plays it)."""
    record = selfplay(seed, "2")
    for seat, name in zip(record["players"], names, strict=True):
        seat["name"] = name
    return json.dumps(record)


def _submit_for_match(page, match_id: int, record: str) -> None:
    """From the match page to the record's verdict (which the worker gives on production; the
    record page polls for it and reloads)."""
    page.goto(f"/championships/matches/{match_id}/")
    page.get_by_text("Or paste the record (JSON)").click()
    page.get_by_label("Record", exact=True).fill(record)
    page.get_by_role("button", name="Send the game").click()
    expect(page.locator("#record-status")).to_have_text("Valid")


def test_a_result_is_reported_and_the_opponent_confirms_it(site, people, tmp_path):
    match = site.manifest["free_matches"][0]
    reporter_name, opponent_name = match["players"]
    reporter = people.tab(reporter_name.lower())
    # The reporter uploads the record file their game client saved.
    record_file = tmp_path / "game.json"
    record_file.write_text(_record(11, match["players"]))
    reporter.goto(f"/championships/matches/{match['id']}/")
    reporter.get_by_label("Game file").set_input_files(str(record_file))
    reporter.get_by_role("button", name="Send the game").click()
    expect(reporter.locator("#record-status")).to_have_text("Valid")
    reporter.locator("#verdict").get_by_role("link").click()
    expect(reporter.locator("#result-state")).to_have_text("Waiting for confirmation")

    opponent = people.tab(opponent_name.lower())
    opponent.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    opponent.locator("#waiting").get_by_role(
        "link", name=f"{reporter_name} v {opponent_name}"
    ).click()
    opponent.get_by_role("button", name="Confirm this result").click()
    expect(opponent.locator("#result-state")).to_have_text("Standing")
    # The match counts the game (the page refreshes itself while the event runs).
    opponent.goto(f"/championships/matches/{match['id']}/")
    expect(opponent.locator("table.games")).to_contain_text("Game 1")
    # Both players' profiles list what waits for them: nothing now.
    opponent.get_by_role("navigation", name="Main").get_by_role("link", name=opponent_name).click()
    expect(opponent.locator("#player-reports")).to_contain_text("Nothing is waiting for you.")


def test_a_disputed_result_is_ruled_by_a_controller_and_reopened_by_an_organiser(site, people):
    match = site.manifest["free_matches"][1]
    reporter_name, opponent_name = match["players"]
    reporter = people.tab(reporter_name.lower())
    _submit_for_match(reporter, match["id"], _record(12, match["players"]))
    reporter.locator("#verdict").get_by_role("link").click()
    report_url = reporter.url

    opponent = people.tab(opponent_name.lower())
    opponent.goto("/")
    opponent.get_by_role("navigation", name="Main").get_by_role("link", name=opponent_name).click()
    opponent.locator("#player-reports").get_by_role(
        "link", name=f"{reporter_name} v {opponent_name}"
    ).click()
    opponent.get_by_label("What is wrong with this report?").fill("We never finished this game.")
    opponent.get_by_role("button", name="Dispute it").click()
    expect(opponent.locator("#result-state")).to_have_text("Disputed: waiting for a ruling")

    controller = people.tab("jana")  # a controller of the Demo Open
    controller.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    controller.locator("#to-rule").get_by_role(
        "link", name=f"{reporter_name} v {opponent_name}"
    ).click()
    controller.get_by_label("The result that stands").select_option("1")  # the report
    controller.get_by_label("Reason").fill("The record shows the game played to its end.")
    controller.get_by_role("button", name="Rule").click()
    expect(controller.locator("#result-state")).to_have_text("Standing")

    organiser = people.tab("organiser")
    organiser.goto(report_url)
    organiser.get_by_label("Reason").fill("The players found the score sheet: look again.")
    organiser.get_by_role("button", name="Reopen").click()
    expect(organiser.locator("#result-state")).to_have_text("Disputed: waiting for a ruling")
    # Reopened, the dispute is back with the controller.
    controller.get_by_role("navigation", name="Main").get_by_role("link", name="Reports").click()
    expect(controller.locator("#to-rule")).to_contain_text(f"{reporter_name} v {opponent_name}")
