"""The bracket fits the screen (issue 28): on a 1366 px screen a 32-entry bracket shows every
name and round heading whole at the default zoom; the zoom buttons scale it; the "swipe" hint
is for touch screens only; a 128-entry bracket keeps its round headings in view; print shows
the whole bracket without the buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from players.models import Player
from tests.tournaments.pages import builders
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Names as long as real ones get (the "Matilda Thomp…" was cut at 16 letters).
LONG_NAMES = [
    "Matilda Thompson",
    "Konstantin Wolkenstein",
    "Aroha Ngata-Whitmore",
    "Bartholomew Okafor",
    "Zsófia Kovácsné Szabó",
    "Kristýna Procházková",
    "Maximilian Oberhuber",
    "Gwendolyn Fairweather",
]

CUT = """() => [...document.querySelectorAll(%s)].filter(
    (e) => e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5
).map((e) => e.textContent.trim())"""


def _knockout_with_long_names(organiser, entrants: int, ruled_rounds: int = 2):
    event = builders.knockout(
        organiser, builders.championship(organiser), entrants, ruled_rounds=ruled_rounds
    )
    for i, entry in enumerate(Entry.objects.filter(event=event).order_by("seed")):
        Player.objects.filter(pk=entry.player_id).update(
            display_name=f"{LONG_NAMES[i % len(LONG_NAMES)]}" + ("" if i < 8 else f" {i}")
        )
    return event


@pytest.fixture
def desktop(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


def test_a_32_bracket_fits_a_1366_screen_and_zooms(desktop, organiser, tmp_path):
    event = _knockout_with_long_names(organiser, 32)
    desktop.goto(f"/championships/events/{event.pk}/")
    grid = desktop.locator(".bracket-grid")
    expect(grid.locator(".bracket-round")).to_have_count(6)  # 5 rounds and the champion
    expect(grid).to_contain_text("Konstantin Wolkenstein")

    # The whole width of the page, not the site's reading column.
    widths = desktop.evaluate(
        "() => [document.querySelector('.bracket-scroll').clientWidth,"
        " document.querySelector('.bracket-grid').scrollWidth,"
        " document.documentElement.scrollWidth]"
    )
    assert widths[0] > 1250, widths
    assert widths[1] <= widths[0], widths  # every round in view, nothing to scroll sideways
    assert widths[2] <= 1366, widths  # nor does the page
    # No name and no round heading cut.
    assert desktop.evaluate(CUT % "'.bout .name'") == []
    assert desktop.evaluate(CUT % "'.bracket-round h3'") == []
    assert desktop.locator(".bout .name").count() == 2 * (16 + 8 + 4 + 2 + 1)
    # Nothing says "swipe" on a screen with a mouse; the mouse's own hint instead.
    expect(desktop.locator(".scroll-hint")).to_be_hidden()
    expect(desktop.get_by_text("Swipe", exact=False)).to_be_hidden()
    expect(desktop.locator(".pointer-hint")).to_be_visible()
    desktop.screenshot(path=str(tmp_path / "bracket-32-1366.png"), full_page=False)

    # The zoom buttons scale the bracket, and "actual size" brings it back.
    bout = desktop.locator(".bracket-round").first.locator(".bout").first
    width = bout.bounding_box()["width"]
    level = desktop.locator(".bracket-zoom-level")
    expect(level).to_have_text("100%")
    desktop.get_by_role("button", name="Zoom in").click()
    expect(level).to_have_text("125%")
    assert bout.bounding_box()["width"] == pytest.approx(width * 1.25, rel=0.05)
    desktop.get_by_role("button", name="Zoom out").click()
    desktop.get_by_role("button", name="Zoom out").click()
    expect(level).to_have_text("80%")
    assert bout.bounding_box()["width"] == pytest.approx(width * 0.8, rel=0.05)
    desktop.get_by_role("button", name="Actual size").click()
    expect(level).to_have_text("100%")
    assert bout.bounding_box()["width"] == pytest.approx(width, rel=0.02)
    # Ctrl + wheel zooms as well (a plain wheel scrolls).
    box = desktop.locator(".bracket-scroll").bounding_box()
    desktop.mouse.move(box["x"] + 200, box["y"] + 200)
    desktop.keyboard.down("Control")
    desktop.mouse.wheel(0, -300)
    desktop.keyboard.up("Control")
    expect(level).not_to_have_text("100%")


def test_a_128_bracket_reads_by_round(desktop, organiser, tmp_path):
    event = _knockout_with_long_names(organiser, 128, ruled_rounds=1)
    desktop.goto(f"/championships/events/{event.pk}/")
    rounds = desktop.locator(".bracket-rounds a")
    expect(rounds).to_have_count(7)
    assert desktop.evaluate(CUT % "'.bout .name'") == []
    assert desktop.evaluate(CUT % "'.bracket-round h3'") == []
    # Far down the first round, every round's heading is still in the bracket's window.
    scroller = desktop.locator(".bracket-scroll")
    scroller.evaluate("(s) => { s.scrollTop = 2000; }")
    top = scroller.bounding_box()["y"]
    for i in range(3):
        heading = desktop.locator(".bracket-round h3").nth(i).bounding_box()
        assert heading is not None and abs(heading["y"] - top) < 4
    # "Whole bracket" zooms out until every round is across the screen.
    desktop.get_by_role("button", name="Whole bracket").click()
    assert desktop.evaluate(
        "() => { const s = document.querySelector('.bracket-scroll');"
        " return s.scrollWidth <= s.clientWidth + 1; }"
    )
    desktop.screenshot(path=str(tmp_path / "bracket-128-whole.png"), full_page=False)
    # The round links bring a round into view.
    desktop.get_by_role("button", name="Actual size").click()
    final_id = desktop.locator(".bracket-round.final-round").get_attribute("id")
    desktop.locator(f".bracket-rounds a[href='#{final_id}']").click()
    final_box = desktop.locator(".bracket-round.final-round").bounding_box()
    assert final_box is not None and 0 <= final_box["x"] < 1366


def test_print_shows_the_whole_bracket_without_the_buttons(desktop, organiser):
    event = _knockout_with_long_names(organiser, 32)
    desktop.goto(f"/championships/events/{event.pk}/")
    desktop.get_by_role("button", name="Zoom in").click()
    desktop.emulate_media(media="print")
    expect(desktop.locator(".bracket-tools")).to_be_hidden()
    expect(desktop.locator(".bracket-rounds")).to_be_hidden()
    layout = desktop.evaluate(
        "() => { const s = document.querySelector('.bracket-scroll');"
        " return {overflow: getComputedStyle(s).overflowY,"
        " fits: s.scrollWidth <= s.clientWidth + 1,"
        " zoom: getComputedStyle(document.querySelector('.bracket-grid')).zoom}; }"
    )
    assert layout == {"overflow": "visible", "fits": True, "zoom": "1"}


def test_the_swipe_hint_shows_on_a_touch_screen(browser, live_server, organiser):
    event = _knockout_with_long_names(organiser, 32)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    phone = context.new_page()
    try:
        phone.goto(f"/championships/events/{event.pk}/")
        expect(phone.locator(".scroll-hint")).to_be_visible()
        expect(phone.locator(".pointer-hint")).to_be_hidden()
    finally:
        context.close()
