"""Brackets in a real browser: following a match, a page that updates itself when a result
arrives, the bracket on a 390 px phone, and the print layout. Screenshots go to tmp_path."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.pages import builders
from tournaments import services
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def csp_reports(page):
    reports: list[str] = []
    page.on(
        "console",
        lambda m: reports.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return reports


def test_open_the_bracket_and_follow_a_match(page, organiser, tmp_path, csp_reports):
    event = builders.knockout(organiser, builders.championship(organiser), 16, ruled_rounds=1)
    page.goto(f"/championships/events/{event.pk}/")
    grid = page.locator(".bracket-grid")
    expect(grid.locator(".bracket-round")).to_have_count(5)  # 4 rounds and the champion
    expect(page.locator(".bracket-round.current h3")).to_contain_text("Quarter-finals")
    expect(grid).to_contain_text("Winner of QF 1")
    # Connector lines: every slot but the champion's draws one (a pseudo-element with a border).
    wire = page.evaluate(
        "() => getComputedStyle(document.querySelector('.bracket-round .slot'), '::after')"
        ".borderRightWidth"
    )
    assert wire == "2px"
    page.screenshot(path=str(tmp_path / "bracket-16.png"), full_page=True)

    quarter = Match.objects.get(event=event, round__number=2, bracket_index=0)
    a, b = quarter.entry_a.player.display_name, quarter.entry_b.player.display_name
    page.locator(".bracket-round.current .bout").first.click()
    expect(page.locator("h1")).to_have_text(f"Quarter-final: {a} v {b}")
    expect(page).to_have_title(f"Quarter-final: {a} v {b} · {event.name} · Tantrix tournaments")
    page.click(f"text={event.name}")
    expect(page.locator(".bracket-grid")).to_be_visible()
    assert csp_reports == []


def test_the_bracket_updates_itself_when_a_result_arrives(
    page, organiser, settings, tmp_path, csp_reports
):
    settings.TOURNAMENTS_LIVE_POLL_SECONDS = 1
    event = builders.knockout(organiser, builders.championship(organiser), 8, ruled_rounds=0)
    page.goto(f"/championships/events/{event.pk}/")
    page.evaluate("() => { window.notReloaded = true; }")
    first = Match.objects.get(event=event, round__number=1, bracket_index=0)
    winner = first.entry_b.player.display_name
    semi = page.locator(".bracket-round").nth(1).locator(".bout").first
    expect(semi).to_contain_text("Winner of QF 1")

    services.match_rule(actor=organiser, match=first, winner_entry_id=first.entry_b_id, reason="x")

    # expect() polls until its deadline: no fixed sleep.
    expect(semi).to_contain_text(winner)
    expect(page.locator(".bracket-round").first.locator(".bout").first).to_contain_text("Ruled")
    assert page.evaluate("() => window.notReloaded") is True  # swapped in, not reloaded
    page.screenshot(path=str(tmp_path / "bracket-live.png"), full_page=True)

    # The match page follows its own match the same way.
    final = Match.objects.get(event=event, round__number=3)
    page.goto(f"/championships/matches/{final.pk}/")
    expect(page.locator("h1")).to_have_text("Final: Winner of SF 1 v Winner of SF 2")
    for match in Match.objects.filter(event=event, round__number__lt=3).order_by(
        "round__number", "bracket_index"
    ):
        match.refresh_from_db()
        if match.entry_a_id and match.entry_b_id and not match.is_final:
            services.match_rule(
                actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="x"
            )
    final.refresh_from_db()
    expect(page.locator("h1")).to_have_text(
        f"Final: {final.entry_a.player.display_name} v {final.entry_b.player.display_name}"
    )
    assert csp_reports == []


def test_the_bracket_on_a_390px_phone(browser, live_server, organiser, tmp_path):
    event = builders.knockout(organiser, builders.championship(organiser), 32, ruled_rounds=2)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    phone = context.new_page()
    try:
        phone.goto(f"/championships/events/{event.pk}/")
        current = phone.locator(".bracket-round.current")
        expect(current.locator("h3")).to_contain_text("Quarter-finals")
        expect(phone.locator(".scroll-hint")).to_be_visible()
        box = current.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        sizes = phone.evaluate(
            "() => { const s = document.querySelector('.bracket-scroll');"
            " return [s.scrollWidth, s.clientWidth, document.documentElement.scrollWidth]; }"
        )
        assert sizes[0] > sizes[1]  # the other rounds are a swipe away
        assert sizes[2] <= 390  # the page itself does not scroll sideways
        phone.locator(".bracket-section h2").scroll_into_view_if_needed()
        phone.screenshot(path=str(tmp_path / "bracket-390.png"), full_page=False)
        # The round links jump to a round, the champion's column included.
        phone.click(".bracket-rounds >> text=Final")
        final_box = phone.locator(".bracket-round.final-round").bounding_box()
        assert final_box is not None and 0 <= final_box["x"] < 390
        phone.screenshot(path=str(tmp_path / "bracket-390-final.png"), full_page=False)
    finally:
        context.close()


def test_the_print_stylesheet_puts_the_bracket_on_its_own_page(page, organiser, tmp_path):
    event = builders.knockout(organiser, builders.championship(organiser), 16, ruled_rounds=2)
    page.goto(f"/championships/events/{event.pk}/")
    expect(page.locator(".site-header")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".bracket-rounds")).to_be_hidden()
    expect(page.locator(".entries-section")).to_be_hidden()
    layout = page.evaluate(
        "() => { const section = document.querySelector('.bracket-section');"
        " const scroll = document.querySelector('.bracket-scroll');"
        " const style = getComputedStyle(section);"
        " return {after: style.breakAfter, overflow: getComputedStyle(scroll).overflowX,"
        " fits: scroll.scrollWidth <= scroll.clientWidth + 1}; }"
    )
    assert layout == {"after": "page", "overflow": "visible", "fits": True}
    page.screenshot(path=str(tmp_path / "bracket-print.png"), full_page=True)
    pdf = tmp_path / "bracket.pdf"
    page.pdf(path=str(pdf), landscape=True, format="A3", print_background=True)
    assert pdf.stat().st_size > 0


def test_group_tables_update_themselves_and_read_well_on_a_phone(
    page, browser, live_server, organiser, settings, tmp_path, csp_reports
):
    settings.TOURNAMENTS_LIVE_POLL_SECONDS = 1
    event = builders.group_stage(organiser, builders.championship(organiser), 16, groups=2)
    page.goto(f"/championships/events/{event.pk}/")
    counter = page.locator("#group-1 h3 small")
    expect(counter).to_have_text("4 of 28 matches decided")
    page.locator("#group-1 summary").click()
    expect(page.locator("#group-1 .match-list")).to_be_visible()
    page.screenshot(path=str(tmp_path / "groups.png"), full_page=True)
    match = Match.objects.filter(event=event, group=1, round__number=2).first()
    services.match_rule(actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="x")
    expect(counter).to_have_text("5 of 28 matches decided")
    assert csp_reports == []

    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    phone = context.new_page()
    try:
        phone.goto(f"/championships/events/{event.pk}/")
        table = phone.locator("#group-1 .group-table")
        expect(table).to_be_visible()
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        table.scroll_into_view_if_needed()
        phone.screenshot(path=str(tmp_path / "groups-390.png"))
    finally:
        context.close()
