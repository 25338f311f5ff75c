"""Walks of site staff (a role granted, rating flags acknowledged and settled, a verdict
reviewed) and of a visitor who reads standings, a bracket, a game's replay and the rankings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_staff_grant_a_role_and_review_a_rating_flag_and_a_verdict(site, people):
    staff = people.tab("admin")
    nav = staff.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Claims").click()
    staff.get_by_role("link", name="Organisers and staff").click()
    form = staff.locator("#role-change")
    form.get_by_label("Username or player name").fill("Giulia")
    form.get_by_label("Role").select_option("organiser")
    form.get_by_label("Change").select_option("grant")
    form.get_by_label("Reason").fill("Runs the Rome club's championship.")
    form.get_by_role("button", name="Save").click()
    expect(staff.locator("#roles")).to_contain_text("giulia")
    expect(staff.locator("#role-audit")).to_contain_text("Runs the Rome club's championship.")

    # Two Tournament Elo swings the demo's Team Cup game flagged, each naming its event and the
    # game behind it (issue 28): one acknowledged with a note, the other settled by reverting
    # that game, whose player link opens his Elo table.
    nav.get_by_role("link", name="Review").click()
    ingrid = staff.locator("#reviews tbody tr", has_text="Ingrid").first
    expect(ingrid).to_contain_text("Tournament Elo")
    expect(ingrid).to_contain_text("Demo Team Cup 2026 · Final")
    ingrid.get_by_label("Note on acknowledging Ingrid: Large swing").fill(
        "A strong newcomer's first match: expected."
    )
    ingrid.get_by_role("button", name="Acknowledge").click()
    expect(staff.locator(".messages")).to_contain_text("Ingrid: Large swing: acknowledged.")
    tomas = staff.locator("#reviews tbody tr", has_text="Tomas").first
    expect(tomas.get_by_role("button", name="Revert", exact=True)).to_have_count(0)
    tomas.get_by_role("link", name="Revert a game behind it, or adjust…").click()
    facts = staff.locator("#review-facts")
    expect(facts).to_contain_text("Demo Team Cup 2026 · Final")
    games = staff.locator("table.games-behind")
    expect(games).to_contain_text("Ingrid")
    games.get_by_role("checkbox").first.check()
    form = staff.locator("#revert-games")
    form.get_by_label("Note").fill("Played on the wrong board: not a rated game.")
    form.get_by_role("button", name="Revert the ticked games").click()
    expect(staff.locator(".messages")).to_contain_text("1 game reverted")
    expect(games).to_contain_text("reverted")
    expect(facts).to_contain_text("Reverted")
    facts.get_by_role("link", name="Tomas").click()
    expect(staff.locator("nav.search [aria-current=page]")).to_have_text("Tournament Elo")
    expect(staff.locator("svg.rating-chart")).to_be_visible()

    # A stored verdict the current engine judges otherwise: the new verdict is approved.
    nav.get_by_role("link", name="Review").click()
    staff.get_by_role("link", name="Verdict reviews").click()
    staff.locator("main table").get_by_role("link", name=re.compile(r"^Record \d+$")).first.click()
    staff.get_by_label("Note (optional)").fill("The engine is right; the stored scores were not.")
    staff.get_by_role("button", name="Approve the new verdict").click()
    expect(staff.locator(".facts")).to_contain_text("Approved")
    # The ratings' trail, and the whole trail with the role granted.
    nav.get_by_role("link", name="Review").click()
    staff.get_by_role("link", name="Audit trail").click()
    expect(staff.get_by_role("heading", level=1)).to_be_visible()
    nav.get_by_role("link", name="Claims").click()
    staff.get_by_role("link", name="Organisers and staff").click()
    staff.get_by_role("link", name="The whole audit trail").click()
    expect(staff.locator("main")).to_contain_text("Runs the Rome club's championship.")


def test_a_visitor_reads_standings_a_bracket_a_replay_and_the_rankings(site, people):
    visitor = people.tab()
    visitor.goto("/")
    nav = visitor.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Spring Table Open").click()
    visitor.get_by_role("link", name="Open", exact=True).click()
    standings = visitor.locator("table.standings")
    expect(standings.locator("tbody tr")).to_have_count(4)
    for name in ("Giulia", "Sven", "Noah", "Lucas"):
        expect(standings).to_contain_text(name)
    with visitor.expect_download() as download:
        visitor.get_by_role("link", name="standings (CSV)").click()
    assert "Giulia" in download.value.path().read_text(encoding="utf-8-sig")

    nav.get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Demo Open").click()
    visitor.get_by_role("link", name="Knockout", exact=True).click()
    bracket = visitor.locator(".bracket-grid")
    expect(bracket).to_contain_text("Final")
    # A decided match of the first round, then its game, replayed placement by placement.
    bracket.locator("a.bout:has(.side.winner)").first.click()
    visitor.locator("table.games").get_by_role("link", name="Game 1").click()
    expect(visitor.locator("svg.board")).to_be_visible()
    controls = visitor.locator("#replay-controls")
    expect(controls).to_be_visible()
    count = visitor.locator("#replay-count")
    total = count.inner_text().split("/")[1].strip()
    controls.get_by_role("button", name="First").click()
    expect(count).to_have_text(f"0 / {total}")
    controls.get_by_role("button", name="Next").click()
    expect(count).to_have_text(f"1 / {total}")

    nav.get_by_role("link", name="Rankings").click()
    ranking = visitor.locator("main table").first
    expect(ranking).to_contain_text("Ingrid")
    ranking.get_by_role("link", name="Ingrid").click()
    expect(visitor.get_by_role("heading", level=1)).to_contain_text("Ingrid")
    nav.get_by_role("link", name="Rankings").click()
    visitor.get_by_role("link", name="Masters").click()
    expect(visitor.get_by_role("heading", level=1)).to_be_visible()

    # A player's page and the games list; then the site in Russian from the header's switcher.
    nav.get_by_role("link", name="Players").click()
    visitor.locator("main table").get_by_role("link", name="Ingrid").click()
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Ingrid")
    nav.get_by_role("link", name="Games").click()
    visitor.locator("main table a").first.click()
    expect(visitor.locator("svg.board")).to_be_visible()
    visitor.get_by_label("Language").select_option("ru")
    visitor.locator(".language-switch").get_by_role("button").click()
    expect(visitor.locator("html")).to_have_attribute("lang", "ru")
    expect(visitor.locator("svg.board")).to_be_visible()
