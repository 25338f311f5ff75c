"""The game replay, the offline API explorer and a 404 with DEBUG off, in Chromium."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from ratings import services as rating_services
from tests.factories import PlayerFactory
from tests.games.helpers import colour_mismatch_record
from tests.pages.helpers import game_row, record_row

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = "#replay-board g.tile:not(.hidden-step)"


def watch_csp(page) -> list[str]:
    """The console messages in which Chromium reports something the policy blocked."""
    reports: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text and reports.append(m.text))
    return reports


def test_step_the_replay_ten_placements(page, tmp_path):
    csp_reports = watch_csp(page)
    players = [
        PlayerFactory(display_name="Ingrid", with_user=True),
        PlayerFactory(display_name="Tomas", with_user=True),
    ]
    game = game_row(players, seed=3)
    total = game.placements_count
    page.goto(f"/games/{game.pk}/")
    # The script shows the controls and starts at the end: every tile, the lines outlined.
    expect(page.locator("#replay-controls")).to_be_visible()
    expect(page.locator(SHOWN)).to_have_count(total)
    expect(page.locator("#replay-board.at-end")).to_have_count(1)
    page.screenshot(path=str(tmp_path / "replay-end.png"), full_page=True)

    page.click("[data-go=first]")
    expect(page.locator(SHOWN)).to_have_count(0)
    expect(page.locator("#replay-caption")).to_have_text("Before the first placement")
    expect(page.locator("#replay-hands .hand-tile")).to_have_count(12)

    # Ten placements: six with the button, three with the arrow key, one back and two forward.
    for _ in range(6):
        page.click("[data-go=next]")
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.click("[data-go=next]")

    expect(page.locator(SHOWN)).to_have_count(10)
    current = page.locator("#replay-board g.tile.current")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-step", "10")
    expect(page.locator("#replay-step")).to_have_value("10")
    expect(page.locator("#replay-count")).to_have_text(f"10 / {total}")
    expect(page.locator("#replay-caption")).to_contain_text(f"Placement 10 of {total}")
    expect(page.locator("#replay-board.at-end")).to_have_count(0)
    expect(page.locator(".timeline button[aria-current]")).to_have_attribute("data-step", "10")
    # Both players still hold six tiles: each placement is followed by a draw from the bag.
    expect(page.locator("#replay-hands .hand-tile")).to_have_count(12)
    page.screenshot(path=str(tmp_path / "replay-10.png"), full_page=True)

    page.keyboard.press("End")
    expect(page.locator(SHOWN)).to_have_count(total)
    expect(page.locator("#replay-board.at-end")).to_have_count(1)

    # The player page lists the game, links it, and charts the rating it moved.
    rating_services.game_ratings_apply(game_id=game.pk)
    page.goto(f"/players/{players[0].pk}/")
    expect(page.locator("#games")).to_contain_text("Tomas")
    expect(page.locator(f"#games a[href='/games/{game.pk}/']")).to_have_count(1)
    expect(page.locator("svg.rating-chart").first.locator("circle")).to_have_count(1)
    page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
    assert csp_reports == []


def test_an_invalid_record_shows_the_board_up_to_the_illegal_placement(page, log_in, tmp_path):
    csp_reports = watch_csp(page)
    players = [
        PlayerFactory(display_name="Ingrid", with_user=True),
        PlayerFactory(display_name="Tomas", with_user=True),
    ]
    record = record_row(colour_mismatch_record(["Ingrid", "Tomas"]), players)
    log_in(players[0].user.username)
    page.goto(f"/games/records/{record.pk}/")
    expect(page.locator("#verdict")).to_contain_text("The colours do not match")
    expect(page.locator(SHOWN)).to_have_count(2)
    illegal = page.locator("#replay-board g.tile.illegal")
    expect(illegal).to_have_class("tile illegal current")
    caption = page.locator("#replay-caption")
    expect(caption).to_contain_text("The colours do not match. Placement 2")
    # The cell and the turn in words (issue 28): the stored sentence's q=, r= never shows.
    expect(caption).to_contain_text(re.compile(r"tile \d+, 1 step [a-z-]+ of the first tile, "))
    expect(caption).not_to_contain_text("q=")
    expect(page.locator("#verdict")).not_to_contain_text("q=")
    page.screenshot(path=str(tmp_path / "replay-invalid.png"), full_page=True)
    page.click("[data-go=previous]")
    expect(page.locator(SHOWN)).to_have_count(1)
    page.click("[data-go=next]")  # the script writes the caption again, from the same words
    expect(caption).to_contain_text(" of the first tile, ")
    expect(caption).not_to_contain_text("q=")
    assert csp_reports == []


def test_api_docs_render_offline(page, live_server, tmp_path):
    csp_reports = watch_csp(page)
    own = urlparse(live_server.url).netloc
    outside: list[str] = []

    def only_this_server(route):
        if urlparse(route.request.url).netloc == own:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("tantrix-tournaments API")
    expect(page.locator(".opblock").first).to_be_visible()
    page.screenshot(path=str(tmp_path / "api-docs.png"))
    assert outside == []
    assert csp_reports == []


def test_a_404_with_debug_off_is_site_styled(page, settings, tmp_path):
    settings.DEBUG = False
    response = page.goto("/no/such/page/")
    assert response.status == 404
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Nothing here")
    # The stylesheet loaded: the page has the site's background, not the browser's white.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(251, 250, 247)"
    page.screenshot(path=str(tmp_path / "404.png"))
