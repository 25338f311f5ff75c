"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright's sync API runs an asyncio event loop in the test thread, and Django then refuses
synchronous database calls made from that thread (SynchronousOnlyOperation) even though nothing
async touches the database. The tests create their data synchronously around the browser
actions, so the check is switched off while (and only while) these tests run.
"""

from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "tile-and-loop-42"  # tests.factories.UserFactory's


@pytest.fixture(scope="module", autouse=True)
def _sync_database_calls_beside_playwright():
    """Only while browser tests run (module scope outlives each test's database teardown);
    Django reads the variable at each call, so the check is back on for every other test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"The browser tests need Chromium at {CHROMIUM}. Install it with "
            "`apt-get install -y chromium` (or `make browser`; `make test` does it when root).",
            pytrace=False,
        )
    from playwright.sync_api import expect, sync_playwright

    # expect() waits as long as the pages' own actions (set_default_timeout below): its own
    # five seconds were outrun by ReDoc drawing its page on a loaded machine.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


@pytest.fixture
def log_in(page):
    """Log in through the login form."""

    def go(username: str, password: str = PASSWORD) -> None:
        page.goto("/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("main button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

    return go
