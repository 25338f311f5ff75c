"""The site's key flows in a real browser: sign-up, running a knockout, submitting a game."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from games.engine import selfplay
from tests.factories import PlayerFactory, make_organiser
from tournaments import services
from tournaments.models import Championship, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_log_in_and_see_my_player_page(page, log_in):
    page.goto("/accounts/signup/")
    page.fill("#id_username", "mira")
    page.fill("#id_email", "mira@example.org")
    page.fill("#id_password", "hexagon-lines-77")
    page.fill("#id_password_again", "hexagon-lines-77")
    page.fill("#id_display_name", "Mira Loop")
    page.select_option("#id_country", "NZ")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Mira Loop")
    page.click("text=Log out")
    expect(page.locator("nav")).to_contain_text("Log in")
    log_in("mira", "hexagon-lines-77")
    page.click("nav >> text=Mira Loop")
    expect(page).to_have_url(re.compile(r"/players/\d+/$"))
    expect(page.locator("h1")).to_have_text("Mira Loop")
    expect(page.locator(".facts")).to_contain_text("New Zealand")


def test_organiser_creates_a_knockout_registers_players_and_draws(page, log_in, tmp_path):
    organiser = make_organiser(username="olga")
    players = [PlayerFactory(display_name=f"Knight {n}") for n in range(1, 5)]
    log_in("olga")
    page.goto("/championships/")
    page.click("text=New championship")
    page.fill("#id_name", "Browser Open")
    page.fill("#id_year", "2026")
    page.select_option("#id_category", "open")
    page.check("#id_published")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Browser Open 2026")
    page.click("text=New event")
    expect(page.locator("fieldset[data-formats='swiss']")).to_be_hidden()
    page.select_option("#id_format", "swiss")
    expect(page.locator("fieldset[data-formats='swiss']")).to_be_visible()
    page.select_option("#id_format", "knockout")
    page.fill("#id_name", "Main draw")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Main draw")
    for player in players:
        page.fill("#id_player", player.display_name)
        page.click("text=Register player")
        expect(page.locator(".messages")).to_contain_text(f"{player.display_name} is entered")
    # The draw cannot be undone: the event page leads to a page that says so and confirms it.
    page.click("text=Make the draw…")
    expect(page.locator("main")).to_contain_text("The draw cannot be undone")
    # The preview shows a random seed's draw; the organiser asks for seed 4's and makes it.
    page.click("text=Show the draw of a given seed")
    page.fill("#id_seed", "4")
    page.click("main button:has-text('Show this draw')")
    expect(page.locator(".draw-preview")).to_contain_text("The draw of seed 4")
    page.click("main button:has-text('Make this draw')")
    expect(page.locator(".messages")).to_contain_text("The draw for Main draw is made")
    bracket = page.locator(".bracket-grid")
    expect(bracket).to_contain_text("Final")
    for player in players:
        expect(bracket).to_contain_text(player.display_name)
    championship = Championship.objects.get(name="Browser Open")
    assert championship.organisers.get() == organiser
    assert Match.objects.filter(event__championship=championship).count() == 3
    shot = tmp_path / "bracket-drawn.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0


def test_a_player_submits_a_match_game_and_the_record_turns_valid(page, log_in, tmp_path):
    organiser = make_organiser()
    alice = PlayerFactory(with_user=True, display_name="Alice Amber")
    bruno = PlayerFactory(with_user=True, display_name="Bruno Blue")
    championship = services.championship_create(
        actor=organiser, name="Online Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Final", format="knockout"
    )
    for player in (alice, bruno):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    record = selfplay(3, "2")
    names = [match.entry_a.player.display_name, match.entry_b.player.display_name]
    for seat, name in zip(record["players"], names, strict=True):
        seat["name"] = name

    log_in(alice.user.username)
    page.goto(f"/championships/matches/{match.pk}/")
    # The match page takes the record itself (issue 28): pasted here, under "Or paste".
    page.click("text=Or paste the record (JSON)")
    page.fill("#id_record", json.dumps(record))
    page.click("text=Send the game")
    expect(page.locator("#record-status")).to_have_text("Valid")
    expect(page.locator("#verdict")).to_contain_text("Valid. Scores:")
    # Alice's game is a report until Bruno agrees (games/reports): he confirms it.
    report_link = page.locator("#verdict a").get_attribute("href")
    log_in(bruno.user.username)
    page.goto(report_link)
    page.click("text=Confirm this result")
    expect(page.locator("#result-state")).to_have_text("Standing")
    game_link = page.locator("text=See the game").get_attribute("href")

    page.goto(f"/championships/events/{event.pk}/")
    expect(page.locator(".bracket-grid .bout").first).to_contain_text("Live")
    match.refresh_from_db()
    expect(page.locator(".bracket-grid .tps").first).to_have_text(str(match.tps_a))
    bracket_shot = tmp_path / "bracket.png"
    page.screenshot(path=str(bracket_shot), full_page=True)
    assert bracket_shot.stat().st_size > 0

    page.goto(game_link)
    # A game is titled by its players (games/verdicts: record and game are named apart).
    expect(page.locator("h1")).to_contain_text(f"{alice.display_name} v {bruno.display_name}")
    expect(page.locator("svg.board")).to_be_visible()
    game_shot = tmp_path / "game.png"
    page.screenshot(path=str(game_shot), full_page=True)
    assert game_shot.stat().st_size > 0
