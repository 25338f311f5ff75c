"""One-time claim links: made by staff or the entering organiser, stored hashed, single use,
expiring; opened logged out (sign up with the profile) or logged in without a player."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from players import services
from players.models import AuditAction, AuditEntry, ClaimLink, ClaimRequest, ClaimStatus, Player
from ratings.models import Rating
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.players.conftest import ROLES

pytestmark = pytest.mark.django_db

PASSWORD = "hexagon-lines-77"


def _url(token: str) -> str:
    return reverse("claim-link", args=[token])


def _expire(link: ClaimLink) -> None:
    ClaimLink.objects.filter(pk=link.pk).update(
        created=timezone.now() - dt.timedelta(days=20),
        expires=timezone.now() - dt.timedelta(days=6),
    )


# --- Service -------------------------------------------------------------------------------


def test_entering_organiser_makes_a_hashed_expiring_link(organiser, entered):
    link, token = services.claim_link_create(actor=organiser, player=entered)
    assert len(token) >= 40 and token not in link.token_hash
    assert link.token_hash == services.claims.hash_token(token)
    assert not ClaimLink.objects.filter(token_hash=token).exists()
    lifetime = link.expires - link.created
    assert lifetime == dt.timedelta(days=14)
    entry = AuditEntry.objects.get(action=AuditAction.CLAIM_LINK_CREATE)
    assert (entry.actor, entry.subject_player) == (organiser, entered)
    assert token not in str(entry.details)


def test_who_may_make_a_link(organiser, co_organiser, staff, user_player, entered):
    for outsider in (co_organiser, user_player.user):
        with pytest.raises(PermissionDenied):
            services.claim_link_create(actor=outsider, player=entered)
    # Staff also for players entered before anyone recorded who entered them.
    legacy = PlayerFactory(display_name="Legacy")
    services.claim_link_create(actor=staff, player=legacy)
    with pytest.raises(PermissionDenied):
        services.claim_link_create(actor=organiser, player=legacy)


def test_no_link_for_a_player_with_an_account_or_a_robot(staff, user_player):
    robot = PlayerFactory(display_name="Robot", is_robot=True)
    for player in (user_player, robot):
        with pytest.raises(ValidationError):
            services.claim_link_create(actor=staff, player=player)
    assert not ClaimLink.objects.exists()


def test_signing_up_through_the_link_keeps_the_profile_and_its_ratings(organiser, entered):
    Rating.objects.create(player=entered, system="lobby", value=612.5)
    _, token = services.claim_link_create(actor=organiser, player=entered)
    player = services.claim_link_signup(token=token, username="olga", password=PASSWORD)
    assert player.pk == entered.pk and player.user.username == "olga"
    assert player.user.check_password(PASSWORD)
    assert Rating.objects.get(player=entered).value == 612.5
    entry = AuditEntry.objects.get(action=AuditAction.CLAIM_LINK_USE)
    assert (entry.actor, entry.subject_player) == (player.user, entered)
    assert entry.details["new_account"] is True


@pytest.mark.parametrize("state", ["used", "expired", "replaced", "claimed", "unknown"])
def test_a_link_works_once_and_says_why_not(organiser, entered, state):
    link, token = services.claim_link_create(actor=organiser, player=entered)
    if state == "used":
        services.claim_link_signup(token=token, username="olga", password=PASSWORD)
    elif state == "expired":
        _expire(link)
    elif state == "replaced":
        services.claim_link_create(actor=organiser, player=entered)
    elif state == "claimed":
        Player.objects.filter(pk=entered.pk).update(user=UserFactory())
    elif state == "unknown":
        token = token[:-4] + "AAAA"
    error = services.ClaimLinkUnknown if state == "unknown" else services.ClaimLinkGone
    with pytest.raises(error) as caught:
        services.claim_link_signup(token=token, username="late", password=PASSWORD)
    if state != "unknown":
        assert caught.value.code == state
    assert not type(organiser).objects.filter(username="late").exists()


def test_logged_in_without_a_player_attaches_the_profile(organiser, entered):
    account = UserFactory()
    _, token = services.claim_link_create(actor=organiser, player=entered)
    assert services.claim_link_redeem(token=token, user=account).user == account


def test_an_account_with_a_player_cannot_take_a_second(organiser, entered, user_player):
    _, token = services.claim_link_create(actor=organiser, player=entered)
    with pytest.raises(ValidationError, match="already has a player"):
        services.claim_link_redeem(token=token, user=user_player.user)
    entered.refresh_from_db()
    assert entered.user is None


def test_claiming_closes_the_open_requests(organiser, entered):
    someone, claimant = UserFactory(), UserFactory()
    other_player = services.player_create(actor=organiser, display_name="Bruno", country="IT")
    theirs = services.claim_request_create(requester=someone, player=entered)
    own_elsewhere = services.claim_request_create(requester=claimant, player=other_player)
    _, token = services.claim_link_create(actor=organiser, player=entered)
    services.claim_link_redeem(token=token, user=claimant)
    for request in (theirs, own_elsewhere):
        request.refresh_from_db()
        assert request.status == ClaimStatus.CANCELLED and request.decided_at is not None
    entry = AuditEntry.objects.get(action=AuditAction.CLAIM_LINK_USE)
    assert entry.details["closed_requests"] == sorted([theirs.pk, own_elsewhere.pk])


# --- Making a link on the web --------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_link_page_per_role(client, people, entered, who):
    if people[who] is not None:
        client.force_login(people[who])
    url = reverse("player-claim-link", args=[entered.pk])
    response = client.get(url)
    expected = {"anonymous": 302, "organiser": 200, "staff": 200}.get(who, 403)
    assert response.status_code == expected
    made = client.post(url)
    assert made.status_code == expected
    assert ClaimLink.objects.exists() == (expected == 200)
    if expected == 200:
        assert made["Cache-Control"] == "no-store"
        token = re.search(r"/players/claim/([\w-]+)/", made.content.decode()).group(1)
        assert services.claim_link_usable(token=token).player == entered


def test_player_page_offers_the_link_to_its_organiser_only(
    client, organiser, co_organiser, entered
):
    link = reverse("player-claim-link", args=[entered.pk])
    client.force_login(organiser)
    assert link in client.get(reverse("player-detail", args=[entered.pk])).content.decode()
    client.force_login(co_organiser)
    assert link not in client.get(reverse("player-detail", args=[entered.pk])).content.decode()


def test_no_link_page_for_a_claimed_player(client, staff, user_player):
    client.force_login(staff)
    assert client.get(reverse("player-claim-link", args=[user_player.pk])).status_code == 400
    assert client.post(reverse("player-claim-link", args=[user_player.pk])).status_code == 400


# --- Opening a link on the web -------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_opening_a_link_per_role(client, people, entered, who):
    _, token = services.claim_link_create(actor=people["organiser"], player=entered)
    if people[who] is not None:
        client.force_login(people[who])
    response = client.get(_url(token))
    # Everyone in the fixture who is logged in already plays as someone.
    assert response.status_code == (200 if who == "anonymous" else 400)
    assert response["Referrer-Policy"] == "no-referrer"
    if who == "anonymous":
        assert 'name="password"' in response.content.decode()
    else:
        assert "already plays as" in response.content.decode()
        assert client.post(_url(token)).status_code == 400
    entered.refresh_from_db()
    assert entered.user is None


def test_sign_up_through_the_link_on_the_web(client, organiser, entered):
    _, token = services.claim_link_create(actor=organiser, player=entered)
    response = client.post(
        _url(token),
        {"username": "olga", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("player-detail", args=[entered.pk])
    entered.refresh_from_db()
    assert entered.user.username == "olga"
    assert int(client.session["_auth_user_id"]) == entered.user.pk
    client.logout()
    again = client.get(_url(token))
    assert again.status_code == 410 and "already been used" in again.content.decode()


def test_sign_up_errors_are_shown_and_the_link_stays_usable(client, organiser, entered):
    _, token = services.claim_link_create(actor=organiser, player=entered)
    response = client.post(
        _url(token), {"username": "olga", "password": "12345678", "password_again": "12345678"}
    )
    assert response.status_code == 400 and "too common" in response.content.decode()
    assert services.claim_link_usable(token=token).player == entered


def test_logged_in_without_a_player_confirms_and_get_does_not_consume(client, organiser, entered):
    account = UserFactory()
    _, token = services.claim_link_create(actor=organiser, player=entered)
    client.force_login(account)
    page = client.get(_url(token))
    assert page.status_code == 200 and "Yes, I am Offline Olga" in page.content.decode()
    entered.refresh_from_db()
    assert entered.user is None
    assert client.post(_url(token)).status_code == 302
    entered.refresh_from_db()
    assert entered.user == account


@pytest.mark.parametrize(
    ("state", "status", "words"),
    [
        ("expired", 410, "expired"),
        ("used", 410, "already been used"),
        ("replaced", 410, "replaced by a newer one"),
        ("unknown", 404, "not valid"),
    ],
)
def test_a_dead_link_says_why(client, organiser, entered, state, status, words):
    link, token = services.claim_link_create(actor=organiser, player=entered)
    if state == "expired":
        _expire(link)
    elif state == "used":
        ClaimLink.objects.filter(pk=link.pk).update(used_at=timezone.now())
    elif state == "replaced":
        services.claim_link_create(actor=organiser, player=entered)
    elif state == "unknown":
        token = "not-a-real-token"
    response = client.get(_url(token))
    assert response.status_code == status
    assert words in response.content.decode()
    posted = client.post(
        _url(token), {"username": "late", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert posted.status_code == status
    assert not type(organiser).objects.filter(username="late").exists()


# --- API -----------------------------------------------------------------------------------

DENIED = {"anonymous": 401, "player": 403, "other_organiser": 403}


@pytest.mark.parametrize("who", ROLES)
def test_api_make_a_link_per_role(people, entered, who):
    response = client_for(people[who]).post(f"/api/players/{entered.pk}/claim-link/")
    assert response.status_code == DENIED.get(who, 201), response.data
    if who in ("organiser", "staff"):
        token = response.data["url"].rstrip("/").rsplit("/", 1)[1]
        assert services.claim_link_usable(token=token).player == entered
        assert response.data["player"] == {"id": entered.pk, "display_name": "Offline Olga"}


def test_api_link_for_a_claimed_player_is_a_400(staff, user_player):
    response = client_for(staff).post(f"/api/players/{user_player.pk}/claim-link/")
    assert response.status_code == 400
    assert "already belongs" in str(response.data)


def test_api_check_and_redeem(api_client, organiser, entered, user_player):
    link, token = services.claim_link_create(actor=organiser, player=entered)
    check = api_client.post("/api/claim-links/check/", {"token": token}, format="json")
    assert check.status_code == 200 and check.data["player"]["id"] == entered.pk
    missing = api_client.post("/api/claim-links/redeem/", {"token": token}, format="json")
    assert missing.status_code == 400 and {"username", "password"} <= set(missing.data)
    has_player = client_for(user_player.user).post(
        "/api/claim-links/redeem/", {"token": token}, format="json"
    )
    assert has_player.status_code == 400 and "already has a player" in str(has_player.data)
    done = api_client.post(
        "/api/claim-links/redeem/",
        {"token": token, "username": "olga", "password": PASSWORD},
        format="json",
    )
    assert done.status_code == 201 and done.data["id"] == entered.pk
    assert done.data["has_account"] is True
    used = api_client.post("/api/claim-links/check/", {"token": token}, format="json")
    assert used.status_code == 410 and used.data["code"] == "used"
    unknown = api_client.post("/api/claim-links/check/", {"token": "nope"}, format="json")
    assert unknown.status_code == 404


def test_api_redeem_logged_in_without_a_player(organiser, entered):
    account = UserFactory()
    link, token = services.claim_link_create(actor=organiser, player=entered)
    _expire(link)
    expired = client_for(account).post("/api/claim-links/redeem/", {"token": token})
    assert expired.status_code == 410 and expired.data["code"] == "expired"
    _, token = services.claim_link_create(actor=organiser, player=entered)
    done = client_for(account).post("/api/claim-links/redeem/", {"token": token})
    assert done.status_code == 201
    assert done.data["date_of_birth"] is None  # now their own: private fields are shown
    assert ClaimRequest.objects.count() == 0
