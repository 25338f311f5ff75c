"""The API explorers and the site's pages make no request to another host (issue 26, defect 14).

The browser reads the site under a public-looking host name (https://tantrix.test), as a reader
on the internet would (some scripts behave differently on localhost). Every request to that
host is answered by the live server; a request to any other host is recorded and aborted, so
the test itself never reaches the internet.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.pages import builders
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SITE = "https://tantrix.test"


@pytest.fixture
def public_site(page, live_server):
    """The page, reading the live server as SITE; (requests to other hosts, CSP reports)."""
    foreign: list[str] = []
    reports: list[str] = []

    def handle(route):
        url = route.request.url
        if not url.startswith(SITE + "/"):
            foreign.append(url)
            route.abort()
            return
        response = route.fetch(url=live_server.url + url[len(SITE) :])
        route.fulfill(response=response)

    page.route("**/*", handle)
    page.on(
        "console",
        lambda message: reports.append(message.text)
        if "Content Security Policy" in message.text
        else None,
    )
    return foreign, reports


def test_the_api_explorers_load_nothing_from_another_host(page, public_site):
    foreign, reports = public_site
    page.goto(f"{SITE}/api/docs/")
    expect(page.locator(".swagger-ui .opblock-tag").first).to_be_visible()
    # Swagger UI draws only the operations near the viewport (a virtualised list), so the
    # check is that operations are drawn, not which tag happens to come first.
    expect(page.locator(".swagger-ui .opblock-summary-path").first).to_contain_text("/api/")
    assert reports == []

    page.goto(f"{SITE}/api/redoc/")
    expect(page.locator("h1")).to_contain_text("tantrix-tournaments API")
    # Redoc's search runs in a worker it makes from a blob: address, under the policy.
    page.get_by_placeholder("Search...").fill("token")
    expect(page.locator("[role=search] [role=menuitem]").first).to_be_visible()
    assert foreign == []
    # Redoc's one outside request, the logo beside its "API docs by Redocly" credit, is
    # refused by the policy before it leaves the browser; nothing else is refused.
    assert all("https://cdn.redoc.ly/" in report for report in reports), reports


def test_the_pages_people_read_load_nothing_from_another_host(page, public_site, organiser):
    foreign, reports = public_site
    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=1)
    match = Match.objects.filter(event=event, round__number=2).get()
    for path in (
        "/",
        "/championships/",
        f"/championships/{event.championship_id}/",
        f"/championships/events/{event.pk}/",
        f"/championships/matches/{match.pk}/",
        "/rankings/",
        "/players/",
        "/accounts/login/",
        "/accounts/signup/",
        "/docs/record-format/",
    ):
        response = page.goto(SITE + path)
        assert response.status == 200, path
        page.wait_for_load_state("load")
    assert foreign == []
    assert reports == []
