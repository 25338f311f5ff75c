"""Brute-force limits on the API token endpoint, the web login and the admin login."""

from __future__ import annotations

import time
from contextlib import contextmanager
from unittest import mock

import pytest
from django.test import Client
from rest_framework.parsers import JSONParser
from rest_framework.test import APIClient

from players.passwords import token_request_max_bytes
from tantrix_site.http.login_limits import client_address
from tests.factories import UserFactory

PASSWORD = "tile-and-loop-42"  # UserFactory's
TOKEN_URL = "/api/auth/token/"
LOGIN_URL = "/accounts/login/"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_limits(settings):
    """Small limits keep the tests short; a fast hasher keeps each password check cheap."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_FAILURES_PER_USERNAME = 3
    settings.LOGIN_FAILURES_PER_ADDRESS = 5
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 900
    settings.BEHIND_TLS_PROXY = False
    return settings


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@contextmanager
def clock_ahead(seconds: float):
    """Move time.time() (the limiter's clock and the local-memory cache's) forward."""
    real = time.time
    with mock.patch("time.time", lambda: real() + seconds):
        yield


def token(client: APIClient, username: str, password: str, **extra):
    return client.post(
        TOKEN_URL, {"username": username, "password": password}, format="json", **extra
    )


# --- The API token endpoint -------------------------------------------------------------------


def test_token_user_name_is_locked_after_the_limit_even_for_the_right_password(alice):
    client = APIClient()
    for _ in range(3):
        assert token(client, "alice", "wrong").status_code == 400
    locked = token(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert 890 <= int(locked["Retry-After"]) <= 900
    assert "Try again in 15 minutes" in locked.json()["detail"]
    assert "token" not in locked.json()


def test_token_user_name_lock_holds_from_another_address_and_in_another_case(alice):
    for _ in range(3):
        token(APIClient(), "alice", "wrong", REMOTE_ADDR="10.0.0.1")
    assert token(APIClient(), "alice", PASSWORD, REMOTE_ADDR="10.0.0.2").status_code == 429
    assert token(APIClient(), "ALICE", "wrong", REMOTE_ADDR="10.0.0.3").status_code == 429


def test_token_address_is_locked_across_user_names(alice):
    client = APIClient()
    for n in range(5):
        assert token(client, f"guess{n}", "wrong").status_code == 400
    assert token(client, "alice", PASSWORD).status_code == 429
    # Another address is not affected, and alice's own count is untouched.
    other = token(APIClient(), "alice", PASSWORD, REMOTE_ADDR="10.9.9.9")
    assert other.status_code == 200
    assert other.json()["token"]


def test_a_success_is_not_a_failure_and_clears_the_user_names_count(alice):
    client = APIClient()
    for _ in range(2):
        assert token(client, "alice", "wrong").status_code == 400
    assert token(client, "alice", PASSWORD).status_code == 200
    for _ in range(2):
        assert token(client, "alice", "wrong").status_code == 400
    assert token(client, "alice", PASSWORD).status_code == 200
    # The count starts again from the last success: three more failures lock.
    assert token(client, "alice", "wrong").status_code == 400
    assert token(client, "alice", PASSWORD).status_code == 429


def test_the_lock_ends_after_the_window(alice):
    client = APIClient()
    for _ in range(3):
        token(client, "alice", "wrong")
    assert token(client, "alice", PASSWORD).status_code == 429
    with clock_ahead(600):
        assert int(token(client, "alice", PASSWORD)["Retry-After"]) <= 300
    with clock_ahead(901):
        assert token(client, "alice", PASSWORD).status_code == 200


def test_the_limits_are_settings(alice, small_limits):
    small_limits.LOGIN_FAILURES_PER_USERNAME = 5
    client = APIClient()
    for _ in range(4):
        token(client, "alice", "wrong")
    assert token(client, "alice", PASSWORD).status_code == 200


def test_a_large_token_request_is_refused_before_it_is_read(alice):
    body = b'{"username": "alice", "password": "' + b"x" * 64 * 1024 + b'"}'
    response = APIClient().post(TOKEN_URL, body, content_type="application/json")
    assert response.status_code == 413

    # A declared 1 MB (below the site-wide request limit): the test client's payload raises if
    # more than it holds is read, and the JSON parser is never reached.
    with mock.patch.object(JSONParser, "parse", side_effect=AssertionError("parsed")) as parse:
        declared = Client().post(
            TOKEN_URL,
            b'{"username": "a", "password": "b"}',
            content_type="application/json",
            CONTENT_LENGTH=str(1024 * 1024),
        )
    assert declared.status_code == 413
    assert str(token_request_max_bytes()) in declared.json()["detail"]
    parse.assert_not_called()
    # A request of ordinary size is read as before.
    assert token(APIClient(), "alice", PASSWORD).status_code == 200


# --- The web login and the admin login --------------------------------------------------------


def login(client: Client, username: str, password: str):
    return client.post(LOGIN_URL, {"username": username, "password": password})


def test_web_login_is_locked_with_a_message_and_429(alice):
    client = Client()
    for _ in range(3):
        failed = login(client, "alice", "wrong")
        assert failed.status_code == 200
        assert "correct username and password" in failed.content.decode()
    locked = login(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert 890 <= int(locked["Retry-After"]) <= 900
    page = locked.content.decode()
    assert "Too many failed logins" in page
    assert "Try again in 15 minutes" in page
    assert "_auth_user_id" not in client.session
    with clock_ahead(901):
        assert login(client, "alice", PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_web_login_and_the_api_share_the_count(alice):
    client = Client()
    login(client, "alice", "wrong")
    token(APIClient(), "alice", "wrong")
    login(client, "alice", "wrong")
    assert token(APIClient(), "alice", PASSWORD).status_code == 429
    assert login(client, "alice", PASSWORD).status_code == 429


def test_admin_login_counts_and_is_refused_while_locked():
    UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    for _ in range(3):
        failed = client.post("/admin/login/", {"username": "root", "password": "x"})
        assert failed.status_code == 200
    refused = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert refused.status_code == 200  # the form again, not the redirect into the admin
    assert "_auth_user_id" not in client.session
    assert token(APIClient(), "root", PASSWORD).status_code == 429


# --- The client address -----------------------------------------------------------------------


def test_forwarded_for_is_ignored_without_a_proxy(alice):
    client = APIClient()
    for n in range(5):
        token(client, f"guess{n}", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_behind_a_proxy_the_last_forwarded_hop_counts(alice, small_limits):
    small_limits.BEHIND_TLS_PROXY = True
    client = APIClient()
    # The client forges the first hops; the proxy appended the real peer (198.51.100.7).
    for n in range(5):
        token(client, f"guess{n}", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.7")
    forged = token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.7")
    assert forged.status_code == 429
    # Another client behind the same proxy (same REMOTE_ADDR) is not locked out.
    assert token(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 200


def _meta(**meta):
    return mock.Mock(META=meta)


def test_client_address_normalises(small_limits):
    assert client_address(_meta(REMOTE_ADDR="2001:db8:1:2:3:4:5:6")) == "2001:db8:1:2::/64"
    assert client_address(_meta(REMOTE_ADDR="::ffff:192.0.2.1")) == "192.0.2.1"
    assert client_address(_meta(REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="1.2.3.4")) == (
        "192.0.2.1"
    )
    small_limits.BEHIND_TLS_PROXY = True
    assert client_address(
        _meta(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    ) == ("5.6.7.8")
    assert client_address(_meta(REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"
