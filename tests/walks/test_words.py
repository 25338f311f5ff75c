"""Walk of words, not codes (issue 28, item 7): a player sends a record with an illegal
placement and reads why it was refused, the cell and the turn in words (never "q=-2 r=2,
rotation 1"), in English and, from the header's switcher, in Russian."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.games.helpers import colour_mismatch_record

pytestmark = pytest.mark.browser


def test_a_refused_record_names_the_cell_and_the_turn_in_words(site, people):
    # Two players with accounts (the last first-round match of the results walk's cup, which no
    # walk plays: this record is not sent for it, and a refused record reports nothing).
    match = site.manifest["results"]["matches"][-1]
    player = people.tab(match["usernames"][0])
    record = colour_mismatch_record(list(match["players"]))

    player.goto("/games/submit/")
    player.get_by_label("Record", exact=True).fill(json.dumps(record))
    player.get_by_role("button", name="Submit for adjudication").click()
    verdict = player.locator("#verdict")
    expect(verdict).to_contain_text("The colours do not match")
    caption = player.locator("#replay-caption")
    # The second tile lies next to the first: one step in one of the six directions.
    expect(verdict).to_contain_text(
        re.compile(
            r"Placement 2 \(tile \d+, 1 step [a-z-]+ of the first tile, "
            r"(not turned|turned \d+° clockwise)\)"
        )
    )
    expect(caption).to_contain_text("Placement 2 (tile ")
    expect(caption).to_contain_text(" of the first tile")
    for shown in (verdict, caption):
        expect(shown).not_to_contain_text("q=")
        expect(shown).not_to_contain_text("rotation")

    player.get_by_label("Language").select_option("ru")
    player.locator(".language-switch").get_by_role("button").click()
    expect(player.locator("html")).to_have_attribute("lang", "ru")
    expect(verdict).to_contain_text("Размещение 2:")
    expect(verdict).to_contain_text("на 1 клетку к ")
    expect(verdict).to_contain_text(re.compile(r" от первой плитки, (не поворачивая|повернув) её"))
    expect(caption).to_contain_text(" от первой плитки, ")
    for shown in (verdict, caption):
        expect(shown).not_to_contain_text("q=")
