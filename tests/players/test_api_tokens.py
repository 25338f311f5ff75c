"""API tokens end (issue 26, defect 12): one per client, hashed, expiring; a client logs out one
or all of them or rotates its own; a user sees and revokes theirs (API and profile page); a
password change revokes them all; and one maximum password length holds at sign-up, at the
password change and at the token endpoint (a 12,000-character password was accepted at sign-up
and then refused by the token endpoint's body limit, so that account could never get a token).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import json
import urllib.parse

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from players.models import ApiToken, Player
from players.tokens.services import api_token_issue
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "tile-and-loop-42"  # UserFactory's
TOKEN_URL = "/api/auth/token/"
TOO_LONG = "A password has at most 4096 characters."


def obtain(username: str, password: str, *, agent: str = "score-bot/1.0") -> dict:
    response = APIClient().post(
        TOKEN_URL,
        {"username": username, "password": password},
        format="json",
        HTTP_USER_AGENT=agent,
    )
    assert response.status_code == 200, response.content
    return response.json()


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def works(key: str) -> bool:
    """Whether the key authenticates (a token-only endpoint: the list of one's tokens)."""
    status = with_token(key).get("/api/auth/tokens/").status_code
    assert status in (200, 401)
    return status == 200


@pytest.fixture
def alice():
    return PlayerFactory(with_user=True, display_name="Alice").user


# --- Issue, expiry ----------------------------------------------------------------------------


def test_each_login_issues_a_token_of_its_own_and_stores_only_its_digest(alice, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    before = timezone.now()
    first, second = obtain(alice.username, PASSWORD), obtain(alice.username, PASSWORD)
    # DRF's answer as before ({"token": ...}, 40 hexadecimal characters), with its expiry.
    assert set(first) == {"token", "expires"} and len(first["token"]) == 40
    int(first["token"], 16)
    assert first["token"] != second["token"]  # not one static token re-issued
    assert works(first["token"]) and works(second["token"])
    stored = ApiToken.objects.get(digest=hashlib.sha256(first["token"].encode()).hexdigest())
    assert stored.prefix == first["token"][:8] and stored.client == "score-bot/1.0"
    assert stored.expires - stored.created == dt.timedelta(days=30)
    assert before + dt.timedelta(days=30) <= stored.expires
    assert dt.datetime.fromisoformat(first["expires"]) == stored.expires
    rows = list(ApiToken.objects.values_list("digest", "prefix", "client", "password_stamp"))
    assert not any(first["token"] in str(value) for row in rows for value in row)


def test_a_token_ends_when_it_expires(alice, settings):
    settings.API_TOKEN_TTL_DAYS = 2
    key = obtain(alice.username, PASSWORD)["token"]
    token = ApiToken.objects.get()
    assert token.expires - token.created == dt.timedelta(days=2)
    # Two days and a second later:
    ApiToken.objects.update(
        created=token.created - dt.timedelta(days=2, seconds=1),
        expires=token.expires - dt.timedelta(days=2, seconds=1),
    )
    refused = with_token(key).get("/api/auth/tokens/")
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert refused.json()["detail"] == "Invalid token."
    assert with_token(key).get("/api/players/").status_code == 401


def test_last_used_is_noted_without_a_write_on_every_request(alice):
    key = obtain(alice.username, PASSWORD)["token"]
    assert ApiToken.objects.get().last_used is None
    client = with_token(key)
    client.get("/api/players/")
    noted = ApiToken.objects.get().last_used
    assert noted is not None
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/players/")
    assert not [q for q in queries.captured_queries if "UPDATE" in q["sql"]]
    assert ApiToken.objects.get().last_used == noted


def test_the_oldest_token_makes_room_beyond_the_limit(alice, settings):
    settings.API_TOKENS_PER_USER = 3
    keys = [obtain(alice.username, PASSWORD, agent=f"client {n}")["token"] for n in range(4)]
    assert [works(key) for key in keys] == [False, True, True, True]
    assert ApiToken.objects.filter(user=alice).count() == 3


# --- Log out, rotate, list, revoke (API) ------------------------------------------------------


def test_logout_revokes_only_the_token_it_is_sent_with(alice):
    phone, laptop = (
        obtain(alice.username, PASSWORD)["token"],
        obtain(alice.username, PASSWORD)["token"],
    )
    assert with_token(phone).post("/api/auth/logout/").status_code == 204
    assert not works(phone) and works(laptop)
    # A session is no token: logging out needs the token itself.
    session = APIClient()
    session.force_login(alice)
    assert session.post("/api/auth/logout/").status_code in (401, 403)
    assert works(laptop)


def test_logout_all_revokes_every_token_of_the_user_and_no_one_elses(alice):
    bob = UserFactory()
    mine = [obtain(alice.username, PASSWORD)["token"] for _ in range(2)]
    bobs = obtain(bob.username, PASSWORD)["token"]
    answer = with_token(mine[0]).post("/api/auth/logout-all/")
    assert answer.status_code == 200 and answer.json() == {"revoked": 2}
    assert not any(works(key) for key in mine) and works(bobs)
    # From a signed-in browser as well.
    fresh = obtain(alice.username, PASSWORD)["token"]
    browser = APIClient(enforce_csrf_checks=False)
    browser.force_login(alice)
    assert browser.post("/api/auth/logout-all/").json() == {"revoked": 1}
    assert not works(fresh)


def test_rotation_gives_a_new_token_and_ends_the_old_one(alice):
    old = obtain(alice.username, PASSWORD, agent="league-sync")["token"]
    rotated = with_token(old).post("/api/auth/token/rotate/")
    assert rotated.status_code == 200 and set(rotated.json()) == {"token", "expires"}
    new = rotated.json()["token"]
    assert new != old and works(new) and not works(old)
    assert ApiToken.objects.get().client == "league-sync"
    assert with_token(old).post("/api/auth/token/rotate/").status_code == 401


def test_a_user_lists_their_working_tokens_and_revokes_one_but_no_one_elses(alice):
    bob = UserFactory()
    first = obtain(alice.username, PASSWORD, agent="first")["token"]
    second = obtain(alice.username, PASSWORD, agent="second")["token"]
    bobs = obtain(bob.username, PASSWORD)["token"]
    listed = with_token(second).get("/api/auth/tokens/").json()["results"]
    assert [(t["client"], t["prefix"], t["current"]) for t in listed] == [
        ("second", second[:8], True),
        ("first", first[:8], False),
    ]
    assert set(listed[0]) == {
        "id",
        "prefix",
        "client",
        "created",
        "last_used",
        "expires",
        "current",
    }
    bobs_id = ApiToken.objects.get(user=bob).pk
    assert with_token(second).delete(f"/api/auth/tokens/{bobs_id}/").status_code == 404
    assert works(bobs)
    first_id = ApiToken.objects.get(client="first").pk
    assert with_token(second).delete(f"/api/auth/tokens/{first_id}/").status_code == 204
    assert not works(first) and works(second)
    assert with_token(second).delete(f"/api/auth/tokens/{first_id}/").status_code == 404
    assert APIClient().get("/api/auth/tokens/").status_code == 401


# --- Password changes -------------------------------------------------------------------------


def test_the_password_change_page_revokes_every_token_and_keeps_the_browser_signed_in(alice):
    keys = [obtain(alice.username, PASSWORD)["token"] for _ in range(2)]
    browser = Client()
    browser.force_login(alice)
    page = browser.get("/accounts/password/")
    assert page.status_code == 200 and "4096" in page.content.decode()
    changed = browser.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-tantrix-loop",
            "new_password2": "a-new-tantrix-loop",
        },
        follow=True,
    )
    assert changed.redirect_chain[-1][0] == f"/players/{alice.player.pk}/"
    assert "must ask for new tokens" in changed.content.decode()
    assert not any(works(key) for key in keys)
    assert ApiToken.objects.filter(user=alice).count() == 0
    assert browser.get("/accounts/password/").status_code == 200  # still signed in
    assert works(obtain(alice.username, "a-new-tantrix-loop")["token"])


def test_any_other_password_change_ends_the_tokens_too(alice):
    """Staff in the admin, `manage.py changepassword`: the tokens were issued under the old
    password, so they stop, even where no code of ours revoked them."""
    key = obtain(alice.username, PASSWORD)["token"]
    alice.set_password("changed-by-staff-9")
    alice.save()
    assert not works(key)
    assert with_token(key).get("/api/auth/tokens/").json()["detail"] == "Invalid token."


# --- One maximum password length ---------------------------------------------------------------

LONGEST = "ß" * 4095 + "\U0001f600"  # 4096 characters, one of them outside the BMP
TWELVE_THOUSAND = "tantrix-" * 1500  # 12,000 characters


def _signup(password: str, username: str = "longpass"):
    return Client().post(
        "/accounts/signup/",
        {
            "username": username,
            "password": password,
            "password_again": password,
            "display_name": username.title(),
            "country": "DE",
        },
    )


def test_a_12000_character_password_is_refused_at_sign_up_with_a_clear_message():
    assert len(TWELVE_THOUSAND) == 12_000
    page = _signup(TWELVE_THOUSAND)
    assert page.status_code == 200 and TOO_LONG in page.content.decode()
    assert not Player.objects.filter(display_name="Longpass").exists()


def test_the_token_endpoint_refuses_a_12000_character_password_as_a_field_error(alice):
    answer = APIClient().post(
        TOKEN_URL, {"username": alice.username, "password": TWELVE_THOUSAND}, format="json"
    )
    assert answer.status_code == 400  # not 413: the body limit fits the longest password
    assert answer.json() == {"password": [TOO_LONG]}
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("encoding", ["json", "form"])
def test_the_longest_password_sign_up_allows_gets_a_token_in_any_encoding(encoding):
    assert len(LONGEST) == 4096
    assert _signup(LONGEST).status_code == 302
    user = Player.objects.get(display_name="Longpass").user
    fields = {"username": user.username, "password": LONGEST}
    if encoding == "json":  # every character escaped: 12 bytes for the one outside the BMP
        body, kind = json.dumps(fields), "application/json"
    else:
        body, kind = urllib.parse.urlencode(fields), "application/x-www-form-urlencoded"
    assert len(body.encode()) > 16_000
    answer = APIClient().generic("POST", TOKEN_URL, body, content_type=kind)
    assert answer.status_code == 200, answer.content
    assert works(answer.json()["token"])


def test_the_password_change_page_holds_the_same_maximum(alice):
    browser = Client()
    browser.force_login(alice)
    refused = browser.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": TWELVE_THOUSAND,
            "new_password2": TWELVE_THOUSAND,
        },
    )
    assert refused.status_code == 200 and TOO_LONG in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_an_account_with_an_older_longer_password_can_still_sign_in_and_shorten_it(alice):
    """Made before the limit: the web login still takes the password, and the password change
    page turns it into one the token endpoint accepts."""
    alice.set_password(TWELVE_THOUSAND)
    alice.save()
    browser = Client()
    assert (
        browser.post(
            "/accounts/login/", {"username": alice.username, "password": TWELVE_THOUSAND}
        ).status_code
        == 302
    )
    browser.post(
        "/accounts/password/",
        {
            "old_password": TWELVE_THOUSAND,
            "new_password1": "shorter-tantrix-7",
            "new_password2": "shorter-tantrix-7",
        },
    )
    assert works(obtain(alice.username, "shorter-tantrix-7")["token"])


def test_api_sign_up_through_a_claim_link_holds_the_same_maximum(organiser):
    from players import services

    entered = services.player_create(actor=organiser, display_name="Entered Olga", country="PL")
    _link, token = services.claim_link_create(actor=organiser, player=entered)
    refused = APIClient().post(
        "/api/claim-links/redeem/",
        {"token": token, "username": "olga", "password": TWELVE_THOUSAND},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["password"] == [TOO_LONG]


# --- The profile page -------------------------------------------------------------------------


def test_the_profile_page_lists_ones_tokens_and_revokes_them(alice):
    bob = UserFactory()
    bobs = obtain(bob.username, PASSWORD)["token"]
    keys = [obtain(alice.username, PASSWORD, agent=f"bot {n}")["token"] for n in range(3)]
    browser = Client()
    browser.force_login(alice)
    profile = f"/players/{alice.player.pk}/"
    page = browser.get(profile).content.decode()
    assert "API tokens" in page and "bot 2" in page and f"{keys[0][:8]}…" in page
    assert bobs[:8] not in page
    assert "API tokens" not in Client().get(profile).content.decode()  # nobody else's business

    own_id = ApiToken.objects.get(client="bot 0").pk
    revoked = browser.post(f"/accounts/tokens/{own_id}/revoke/", follow=True)
    assert revoked.redirect_chain[-1][0] == f"{profile}#api-tokens"
    assert not works(keys[0]) and works(keys[1])
    bobs_id = ApiToken.objects.get(user=bob).pk
    assert browser.post(f"/accounts/tokens/{bobs_id}/revoke/").status_code == 404
    assert browser.get(f"/accounts/tokens/{own_id}/revoke/").status_code == 405
    assert works(bobs)

    done = browser.post("/accounts/tokens/revoke-all/", follow=True).content.decode()
    assert "2 tokens revoked." in done and "You hold no API tokens." in done
    assert not any(works(key) for key in keys) and works(bobs)
    assert Client().post("/accounts/tokens/revoke-all/").status_code == 302  # to the login


# --- DRF's static tokens, carried over --------------------------------------------------------


def test_drf_tokens_keep_working_for_one_lifetime_and_leave_no_key_in_clear(alice, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp "
            "with time zone NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)", [key, timezone.now(), alice.pk]
        )
    migration = importlib.import_module("players.migrations.0010_api_tokens")
    with connection.schema_editor() as editor:
        migration.carry_over_drf_tokens(apps, editor)
    assert works(key)
    token = ApiToken.objects.get(user=alice)
    assert token.expires - token.created == dt.timedelta(days=30)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)
    alice.set_password("another-one-8")
    alice.save()
    assert not works(key)


def test_a_token_issued_by_the_service_works(alice):
    assert works(api_token_issue(user=alice).key)
