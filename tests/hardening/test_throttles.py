"""Regression: the API throttle cannot be dodged by a forged X-Forwarded-For, and a shared cache
that is down turns throttling off (reported by /healthz) instead of answering 500 everywhere."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import override_settings

from tantrix_site.http import throttles
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

DEAD_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
    }
}


def test_a_forged_forwarded_for_does_not_dodge_the_anonymous_throttle(monkeypatch):
    monkeypatch.setattr(
        throttles.AnonRateThrottle, "THROTTLE_RATES", {"anon": "2/minute", "user": "9/minute"}
    )
    client = client_for(None)
    answers = [
        client.get("/api/championships/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(4)
    ]
    assert answers == [200, 200, 429, 429]


@pytest.fixture
def dead_cache():
    with override_settings(CACHES=DEAD_CACHE):
        caches._settings = None  # noqa: SLF001 - let the handler read the overridden settings
        yield
    caches._settings = None  # noqa: SLF001


def test_the_api_answers_with_the_shared_cache_down(dead_cache, user_player):
    assert client_for(None).get("/api/championships/").status_code == 200
    assert client_for(user_player.user).get("/api/games/records/").status_code == 200


def test_healthz_names_the_cache_when_it_is_down(dead_cache):
    response = client_for(None).get("/healthz")
    assert response.status_code == 503
    assert "cache" in response.json()["failing"]
