"""Walk of calendars (issue 30): a player makes their private calendar address on their
profile, a calendar program (no session) reads it as iCalendar, and the player turns it off;
a visitor takes a running event's calendar from its page."""

from __future__ import annotations

import re

import icalendar
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _read_as_a_calendar_program(people, address: str):
    """What a calendar program gets at this address: no cookie, no session."""
    return people.tab().request.get(address)


def _calendar(answer) -> icalendar.Calendar:
    assert answer.status == 200
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(answer.body())


def test_a_player_subscribes_to_their_calendar_and_turns_it_off(site, people):
    kasia = people.tab("kasia")  # captain of East, whose team match in the Nations Cup waits
    kasia.get_by_role("navigation", name="Main").get_by_role("link", name="Kasia").click()
    section = kasia.locator("#calendar")
    expect(section).to_contain_text("Your calendar is turned off.")
    section.get_by_role("button", name="Make my calendar's address").click()
    expect(kasia.locator("main")).to_contain_text("Your calendar has a new address")

    # The address to copy into a calendar program: long and random.
    address = kasia.get_by_label("Your calendar's address").input_value()
    token = r"[A-Za-z0-9_-]{43}"
    assert re.fullmatch(rf"{re.escape(site.url)}/players/calendar/{token}\.ics", address)
    calendar = _calendar(_read_as_a_calendar_program(people, address))
    deadlines = [e for e in calendar.walk("VEVENT") if str(e["SUMMARY"]).startswith("Deadline: ")]
    assert deadlines, "her open matches' deadlines are in her calendar"
    assert all(e["DTSTART"].dt.utcoffset().total_seconds() == 0 for e in deadlines)
    assert all("/championships/matches/" in str(e["URL"]) for e in deadlines)

    # The address got out: a new one, and the old one answers nothing.
    section = kasia.locator("#calendar")
    section.get_by_role("button", name="Make a new address").click()
    expect(kasia.get_by_label("Your calendar's address")).not_to_have_value(address)
    assert _read_as_a_calendar_program(people, address).status == 404
    newer = kasia.get_by_label("Your calendar's address").input_value()
    assert _read_as_a_calendar_program(people, newer).status == 200

    # Turned off: the profile says so and the address answers 404.
    kasia.locator("#calendar").get_by_role("button", name="Turn the calendar off").click()
    expect(kasia.locator("#calendar")).to_contain_text("Your calendar is turned off.")
    assert _read_as_a_calendar_program(people, newer).status == 404


def test_a_visitor_takes_a_running_events_calendar(site, people):
    visitor = people.tab()
    visitor.goto("/")
    visitor.get_by_role("navigation", name="Main").get_by_role("link", name="Championships").click()
    visitor.get_by_role("link", name="Nations Cup").click()
    visitor.get_by_role("link", name="Final", exact=True).click()
    link = visitor.get_by_role("link", name="This event's calendar (deadlines and agreed matches)")
    calendar = _calendar(visitor.request.get(link.get_attribute("href")))
    (final,) = calendar.walk("VEVENT")
    assert str(final["SUMMARY"]).startswith("Deadline: Final, Nations Cup 2026")
