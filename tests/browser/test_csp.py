"""Page scripts work under the Content-Security-Policy, and the browser reports no violation."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from playwright.sync_api import expect

from games import services as games_services
from games.engine import selfplay
from tests.factories import PlayerFactory, make_organiser
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def csp_reports(page):
    """Every console message in which Chromium reports a blocked script, style or image."""
    reports: list[str] = []
    page.on(
        "console",
        lambda message: reports.append(message.text)
        if "Content Security Policy" in message.text
        else None,
    )
    return reports


def test_the_record_page_updates_itself_under_the_policy(page, log_in, csp_reports):
    alice = PlayerFactory(with_user=True, display_name="Alice Amber")
    PlayerFactory(with_user=True, display_name="Bruno Blue")
    record = selfplay(3, "2")
    for seat, name in zip(record["players"], ["Alice Amber", "Bruno Blue"], strict=True):
        seat["name"] = name
    # Stored as pending with no task queued: the test adjudicates it while the page is open.
    with mock.patch("games.records.services.enqueue_adjudication"):
        submission = games_services.record_submit(
            actor=alice.user, body=json.dumps(record).encode()
        )
    record_id = submission.record.pk

    log_in(alice.user.username)
    response = page.goto(f"/games/records/{record_id}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("#verdict")).to_contain_text("this page updates by itself")
    # The script's first poll rewrites the status, in words (the API's "pending").
    expect(page.locator("#record-status")).to_have_text("Pending")

    assert games_services.record_adjudicate(record_id=record_id) == "valid"
    expect(page.locator("#verdict")).to_contain_text("Valid. Scores:")
    assert csp_reports == []


def test_the_event_form_script_runs_under_the_policy(page, log_in, csp_reports):
    organiser = make_organiser(username="olga")
    championship = services.championship_create(
        actor=organiser, name="Policy Open", year=2026, category="open", published=True
    )
    log_in("olga")
    response = page.goto(f"/championships/{championship.pk}/events/new/")
    assert "form-action 'self'" in response.headers["content-security-policy"]
    expect(page.locator("fieldset[data-formats='swiss']")).to_be_hidden()
    page.select_option("#id_format", "swiss")
    expect(page.locator("fieldset[data-formats='swiss']")).to_be_visible()
    for path in ("/", "/championships/", "/rankings/", "/players/", "/accounts/login/"):
        page.goto(path)
    assert csp_reports == []
