"""Walk of arranging a match across continents (issue 30): the organiser finds the Far Apart
Cup's match unarranged and nudges its players; Haruka (Tokyo) proposes an evening in her zone;
Rafael (São Paulo) reads it in his own zone, the same instant, and accepts it; both then see the
agreed time in their own zone, and the organiser's list no longer shows the match unarranged."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
SAO_PAULO = zoneinfo.ZoneInfo("America/Sao_Paulo")


def _instant(page, selector: str) -> dt.datetime:
    """The instant a <time> element names (its ISO datetime, with the reader's offset)."""
    return dt.datetime.fromisoformat(page.locator(selector).first.get_attribute("datetime"))


def test_two_players_in_different_zones_arrange_and_the_organiser_nudges(site, people):
    event_id = site.manifest["far_apart_event"]
    match_url = f"/championships/matches/{site.manifest['far_apart_match']}/"

    # The organiser: the event's matches without an agreed time, a reminder to its players.
    organiser = people.tab("organiser")
    organiser.goto(f"/championships/events/{event_id}/")
    organiser.get_by_role("link", name="Matches to arrange").click()
    rows = organiser.locator("table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Haruka")
    expect(rows.first).to_contain_text("Rafael")
    rows.first.get_by_role("checkbox").check()
    organiser.get_by_role("button", name="Remind the chosen matches' players").click()
    expect(organiser.locator(".messages")).to_contain_text("The players of 1 match are reminded.")

    # Haruka reads the reminder and proposes tomorrow at 21:00, Tokyo time.
    haruka = people.tab("haruka")
    haruka.goto("/players/notices/")
    expect(haruka.locator("main")).to_contain_text("has no agreed time yet")
    haruka.goto(match_url)
    evening = (dt.datetime.now(TOKYO) + dt.timedelta(days=1)).replace(
        hour=21, minute=0, second=0, microsecond=0
    )
    panel = haruka.locator("#arrangement")
    panel.get_by_label("Time", exact=True).fill(evening.strftime("%Y-%m-%dT%H:%M"))
    panel.get_by_label("Note for your opponent").fill("After work, my evening")
    panel.get_by_role("button", name="Propose", exact=True).click()
    expect(haruka.locator(".messages")).to_contain_text("Your times are proposed")
    proposed = _instant(haruka, "#arrangement .proposals time")
    assert proposed == evening and proposed.utcoffset() == dt.timedelta(hours=9)
    expect(haruka.locator("#arrangement .proposals")).to_contain_text("21:00")

    # Rafael reads the same instant in São Paulo (09:00 the same day) and accepts it.
    rafael = people.tab("rafael")
    rafael.goto(match_url)
    seen = _instant(rafael, "#arrangement .proposals time")
    assert seen == evening and seen.utcoffset() == dt.timedelta(hours=-3)
    local = evening.astimezone(SAO_PAULO)
    expect(rafael.locator("#arrangement .proposals")).to_contain_text(local.strftime("%H:%M"))
    expect(rafael.locator("#arrangement .proposals")).to_contain_text("After work, my evening")
    rafael.get_by_role("button", name="Accept this time").click()
    expect(rafael.locator(".messages")).to_contain_text("The time is agreed")
    expect(rafael.locator(".agreed-time")).to_contain_text(local.strftime("%H:%M"))
    assert _instant(rafael, ".agreed-time time") == evening

    # Haruka sees the agreement in Tokyo time.
    haruka.goto(match_url)
    expect(haruka.locator(".agreed-time")).to_contain_text("21:00")
    agreed = _instant(haruka, ".agreed-time time")
    assert agreed == evening and agreed.utcoffset() == dt.timedelta(hours=9)

    # The organiser's list: nothing left unarranged; all open matches show the agreed time.
    organiser.reload()
    expect(organiser.locator("main")).to_contain_text("No matches here.")
    organiser.get_by_role("link", name="All open matches").click()
    expect(organiser.locator("table tbody tr")).to_have_count(1)
    expect(organiser.locator("table tbody tr").first).to_contain_text(re.compile(r"\d{2}:\d{2}"))
    assert not people.server_errors
