"""Walks of results without JSON (issue 28): on a match's page a player sends the game file by the
file input (a wrong file first, which the page refuses) and the opponent confirms it there; a
face-to-face match's score form, two games, confirmed game by game by the opponent."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.engine import selfplay

pytestmark = pytest.mark.browser


def _record(seed: int, names: list[str]) -> str:
    record = selfplay(seed, "2")
    for seat, name in zip(record["players"], names, strict=True):
        seat["name"] = name
    return json.dumps(record)


def test_a_player_sends_the_game_file_and_the_opponent_confirms_it(site, people, tmp_path):
    match = site.manifest["results"]["matches"][0]
    reporter_name, opponent_name = match["players"]
    match_url = f"/championships/matches/{match['id']}/"
    reporter = people.tab(match["usernames"][0])
    reporter.goto(match_url)
    report = reporter.locator("#match-report")
    # The page says where the file comes from, and links to what it is.
    expect(report).to_contain_text("the game server or app lets you save the game as a file")
    expect(report.get_by_role("link", name="tantrix-game/1")).to_be_visible()
    expect(report.locator(".drop-hint")).to_be_visible()  # the script runs under the CSP

    # A file that is not a game record: the page says so at once, and the server refuses it.
    photo = tmp_path / "photo.json"
    photo.write_text('{"format": "photo/1"}')
    report.get_by_label("Game file").set_input_files(str(photo))
    expect(report.locator(".drop-status")).to_contain_text("is not a tantrix-game/1 game record")
    report.get_by_role("button", name="Send the game").click()
    expect(reporter.locator("#game-file-errors")).to_be_visible()

    game = tmp_path / "game.json"
    game.write_text(_record(41, match["players"]))
    report = reporter.locator("#match-report")
    report.get_by_label("Game file").set_input_files(str(game))
    expect(report.locator(".drop-status")).to_contain_text("Ready to send: game.json")
    report.get_by_role("button", name="Send the game").click()
    expect(reporter.locator("#record-status")).to_have_text("Valid")
    reporter.goto(match_url)
    expect(reporter.locator("#match-sent")).to_contain_text(f"{reporter_name} v {opponent_name}")

    opponent = people.tab(match["usernames"][1])
    opponent.goto(match_url)
    waiting = opponent.locator("#match-waiting")
    expect(waiting).to_contain_text(f"{reporter_name} v {opponent_name}")
    waiting.get_by_role("button", name="Confirm").click()
    expect(opponent.locator(".messages")).to_contain_text("Confirmed: the result stands.")
    expect(opponent.locator("#match-waiting")).to_have_count(0)
    expect(opponent.locator("table.games")).to_contain_text("Game 1")


def test_a_face_to_face_score_form_is_filled_and_confirmed(site, people):
    match = site.manifest["results"]["matches"][1]
    name_a, name_b = match["players"]
    match_url = f"/championships/matches/{match['id']}/"
    reporter = people.tab(match["usernames"][0])
    reporter.goto(match_url)
    form = reporter.locator("#score-form")
    # A typing slip is refused on the page, row by row, and nothing is reported.
    form.get_by_label(f"Game 1: {name_a}'s score").fill("124")
    form.get_by_label(f"Game 1: {name_b}'s score").fill("17")
    form.get_by_role("button", name="Report the scores").click()
    form = reporter.locator("#score-form")
    expect(form).to_contain_text("between 0 and 84")

    form.get_by_label(f"Game 1: {name_a}'s score").fill("24")
    form.get_by_label(f"Game 1: {name_b}'s score").fill("17")
    form.get_by_label(f"Game 2: {name_a}'s score").fill("15")
    form.get_by_label(f"Game 2: {name_b}'s score").fill("22")
    form.get_by_label("Game 2: How the game ended").select_option("resigned")
    form.get_by_label("Game 2: Who resigned or lost on time").select_option(label=name_a)
    form.get_by_role("button", name="Report the scores").click()
    expect(reporter.locator(".messages")).to_contain_text("2 games reported")
    expect(reporter.locator("#match-sent li")).to_have_count(2)

    opponent = people.tab(match["usernames"][1])
    opponent.goto(match_url)
    waiting = opponent.locator("#match-waiting")
    expect(waiting.locator("li")).to_have_count(2)
    expect(waiting).to_contain_text("24 – 17")
    expect(waiting).to_contain_text("(resigned)")
    for _game in range(2):
        opponent.locator("#match-waiting").get_by_role("button", name="Confirm").first.click()
        expect(opponent.locator(".messages")).to_contain_text("Confirmed: the result stands.")
    expect(opponent.locator("#match-waiting")).to_have_count(0)
    games = opponent.locator("table.games")
    expect(games).to_contain_text("Game 1")
    expect(games).to_contain_text("Game 2")
