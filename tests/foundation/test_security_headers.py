"""Content-Security-Policy on every page, and HSTS only where the site is served over HTTPS."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client, override_settings

from tests.factories import PlayerFactory, make_organiser
from tournaments import services

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "templates"

pytestmark = pytest.mark.django_db


def _directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


# --- Content-Security-Policy ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/championships/", "/api/players/"])
def test_pages_carry_the_policy(path):
    response = Client().get(path)
    assert response.status_code == 200
    assert _directives(response) == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }


def test_the_api_explorers_run_under_the_policy():
    # Both are served from static files with their start scripts as files (see urls.py);
    # Redoc's page alone allows the style elements and the search worker Redoc makes at run
    # time, and nothing from another host (issue 26: it had no policy and fetched Google Fonts).
    for path in ("/api/docs/", "/api/schema/"):
        assert "'unsafe-inline'" not in Client().get(path)["Content-Security-Policy"]
    redoc = _directives(Client().get("/api/redoc/"))
    assert redoc["style-src"] == ["'self'", "'unsafe-inline'"]
    assert redoc["worker-src"] == ["'self'", "blob:"]
    assert redoc["script-src"] == ["'self'"] and redoc["img-src"] == ["'self'", "data:"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle=", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]*\son[a-z]+=", re.IGNORECASE)


def test_no_template_has_inline_scripts_or_style_attributes():
    """The policy would block them: page scripts live in static/js/, styles in static/css/."""
    offenders = []
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for pattern in (INLINE_SCRIPT, STYLE_ATTRIBUTE, EVENT_HANDLER):
            offenders += [f"{template.relative_to(REPO)}: {m}" for m in pattern.findall(text)]
    assert offenders == []


def _script_sources(html: str) -> list[str]:
    assert not INLINE_SCRIPT.search(html)
    return re.findall(r'<script src="([^"]+)"', html)


def test_the_record_page_polls_with_a_static_script():
    from games import services as games_services
    from games.engine import selfplay

    alice = PlayerFactory(with_user=True, display_name="Alice Amber")
    PlayerFactory(with_user=True, display_name="Bruno Blue")
    record = selfplay(3, "2")
    for seat, name in zip(record["players"], ["Alice Amber", "Bruno Blue"], strict=True):
        seat["name"] = name
    with mock.patch("games.records.services.enqueue_adjudication"):
        submission = games_services.record_submit(
            actor=alice.user, body=json.dumps(record).encode()
        )
    client = Client()
    client.force_login(alice.user)
    response = client.get(f"/games/records/{submission.record.pk}/")
    assert response.status_code == 200
    assert "Content-Security-Policy" in response
    assert _script_sources(response.content.decode()) == ["/static/js/record-poll.js"]


def test_the_event_form_shows_settings_with_a_static_script():
    organiser = make_organiser()
    championship = services.championship_create(
        actor=organiser, name="Policy Open", year=2026, category="open", published=True
    )
    client = Client()
    client.force_login(organiser)
    response = client.get(f"/championships/{championship.pk}/events/new/")
    assert response.status_code == 200
    assert _script_sources(response.content.decode()) == ["/static/js/event-form.js"]


# --- HSTS -------------------------------------------------------------------------------------


@override_settings(
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
)
def test_hsts_is_sent_on_requests_the_proxy_marks_https():
    secure = Client().get("/", HTTP_X_FORWARDED_PROTO="https")
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert "Content-Security-Policy" in secure
    assert "Strict-Transport-Security" not in Client().get("/")


def _settings_in_production(**environment: str) -> list[str]:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SECURE_", "BEHIND_")) and k not in {"DEBUG", "CELERY_BROKER_URL"}
    }
    env.update(DEBUG="0", SECRET_KEY="x" * 50, DJANGO_SETTINGS_MODULE="tantrix_site.settings")
    env.update(environment)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 or not result.stdout, result.stdout
    return result.stdout.split() if result.returncode == 0 else [result.stderr]


def test_hsts_settings_follow_https():
    """Off without HTTPS (SecurityMiddleware would never send it), on behind a proxy or with the
    redirect, preload only when asked for. One table, one test: the rows only mean something
    together."""
    table = [
        ({}, ["0", "False", "False"]),
        ({"BEHIND_TLS_PROXY": "1"}, ["31536000", "True", "False"]),
        ({"SECURE_SSL_REDIRECT": "1", "SECURE_HSTS_SECONDS": "600"}, ["600", "True", "False"]),
        ({"BEHIND_TLS_PROXY": "1", "SECURE_HSTS_PRELOAD": "1"}, ["31536000", "True", "True"]),
        ({"BEHIND_TLS_PROXY": "1", "DEBUG": "1"}, ["0", "False", "False"]),
    ]
    assert [_settings_in_production(**environment) for environment, _ in table] == [
        expected for _, expected in table
    ]


def test_preload_needs_a_year():
    [error] = _settings_in_production(
        BEHIND_TLS_PROXY="1", SECURE_HSTS_PRELOAD="1", SECURE_HSTS_SECONDS="600"
    )
    assert "SECURE_HSTS_PRELOAD=1 needs SECURE_HSTS_SECONDS of at least 31536000" in error
