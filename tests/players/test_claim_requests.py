"""Claim requests: "this is me" on sign-up or on the player page; staff and the organiser who
entered the player see them, approve (the player joins the requester's account) or refuse."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from players import services
from players.models import AuditAction, AuditEntry, ClaimRequest, ClaimStatus
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.players.conftest import ROLES

pytestmark = pytest.mark.django_db

PASSWORD = "hexagon-lines-77"


@pytest.fixture
def asker(db):
    """An account without a player (signed up and asked, or made in the admin)."""
    return UserFactory(username="olga")


@pytest.fixture
def claim(asker, entered):
    return services.claim_request_create(
        requester=asker, player=entered, message="I played at the Kraków open"
    )


def _login(client, user):
    if user is not None:
        client.force_login(user)
    return client


# --- Service -------------------------------------------------------------------------------


def test_asking_stores_the_request_and_audits_it(claim, asker, entered):
    assert (claim.status, claim.requester, claim.player) == (ClaimStatus.PENDING, asker, entered)
    entry = AuditEntry.objects.get(action=AuditAction.CLAIM_REQUEST_CREATE)
    assert (entry.actor, entry.subject_user, entry.subject_player) == (asker, asker, entered)


def test_asking_is_refused_when_it_makes_no_sense(claim, asker, entered, user_player, organiser):
    with pytest.raises(ValidationError, match="already asked"):
        services.claim_request_create(
            requester=asker,
            player=services.player_create(actor=organiser, display_name="Bruno", country="IT"),
        )
    with pytest.raises(ValidationError, match="already has a player"):
        services.claim_request_create(requester=user_player.user, player=entered)
    with pytest.raises(ValidationError, match="already belongs"):
        services.claim_request_create(requester=UserFactory(), player=user_player)
    assert ClaimRequest.objects.count() == 1


def test_approving_gives_the_player_to_the_requester(claim, organiser, asker, entered):
    services.claim_request_approve(actor=organiser, claim_request=claim, reason="I know her")
    entered.refresh_from_db()
    claim.refresh_from_db()
    assert entered.user == asker
    assert (claim.status, claim.decided_by, claim.decision_reason) == (
        ClaimStatus.APPROVED,
        organiser,
        "I know her",
    )
    entry = AuditEntry.objects.get(action=AuditAction.CLAIM_REQUEST_APPROVE)
    assert (entry.actor, entry.subject_user, entry.reason) == (organiser, asker, "I know her")


def test_only_staff_and_the_entering_organiser_decide(claim, co_organiser, asker, user_player):
    for actor in (co_organiser, asker, user_player.user):
        with pytest.raises(PermissionDenied):
            services.claim_request_approve(actor=actor, claim_request=claim)
        with pytest.raises(PermissionDenied):
            services.claim_request_refuse(actor=actor, claim_request=claim, reason="no")
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING


def test_refusing_needs_a_reason(claim, staff):
    with pytest.raises(ValidationError) as caught:
        services.claim_request_refuse(actor=staff, claim_request=claim, reason=" ")
    assert "reason" in caught.value.message_dict
    services.claim_request_refuse(actor=staff, claim_request=claim, reason="Olga is 80")
    claim.refresh_from_db()
    assert (claim.status, claim.decision_reason) == (ClaimStatus.REFUSED, "Olga is 80")
    assert AuditEntry.objects.get(action=AuditAction.CLAIM_REQUEST_REFUSE).reason == "Olga is 80"


def test_approving_a_player_who_already_has_an_account_is_refused(claim, staff, entered):
    from players.models import Player

    Player.objects.filter(pk=entered.pk).update(user=UserFactory())
    with pytest.raises(ValidationError, match="already belongs"):
        services.claim_request_approve(actor=staff, claim_request=claim)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING


def test_a_decided_request_stays_decided(claim, staff):
    services.claim_request_refuse(actor=staff, claim_request=claim, reason="no")
    with pytest.raises(ValidationError, match="already decided"):
        services.claim_request_approve(actor=staff, claim_request=claim)


def test_approving_one_closes_the_others(claim, staff, entered, asker):
    rival = services.claim_request_create(requester=UserFactory(), player=entered)
    services.claim_request_approve(actor=staff, claim_request=claim)
    rival.refresh_from_db()
    assert rival.status == ClaimStatus.CANCELLED
    with pytest.raises(ValidationError, match="already decided"):
        services.claim_request_approve(actor=staff, claim_request=rival)


# --- Sign-up and the ask page --------------------------------------------------------------


def _signup(client, display_name):
    return client.post(
        reverse("signup"),
        {
            "username": "olga",
            "password": PASSWORD,
            "password_again": PASSWORD,
            "display_name": display_name,
            "country": "PL",
        },
    )


def test_signup_with_an_accountless_name_offers_to_ask(client, entered, user_player):
    response = _signup(client, "offline olga")
    html = response.content.decode()
    assert response.status_code == 200 and "already taken" in html
    assert 'id="claim-offer"' in html
    assert reverse("player-claim", args=[entered.pk]) in html
    taken_by_account = _signup(client, user_player.display_name).content.decode()
    assert "already taken" in taken_by_account and 'id="claim-offer"' not in taken_by_account
    assert not get_user_model().objects.filter(username="olga").exists()


@pytest.mark.parametrize("who", ROLES)
def test_ask_page_per_role(client, people, entered, who):
    _login(client, people[who])
    response = client.get(reverse("player-claim", args=[entered.pk]))
    # The fixture's logged-in people all play as someone already.
    assert response.status_code == (200 if who == "anonymous" else 400)
    posted = client.post(reverse("player-claim", args=[entered.pk]), {"message": "me"})
    assert posted.status_code == 400
    assert not ClaimRequest.objects.exists()


def test_ask_while_signing_up(client, entered):
    response = client.post(
        reverse("player-claim", args=[entered.pk]),
        {
            "username": "olga",
            "password": PASSWORD,
            "password_again": PASSWORD,
            "message": "I played at the Kraków open",
        },
    )
    claim = ClaimRequest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("claim-request-detail", args=[claim.pk])
    assert claim.requester.username == "olga" and claim.message == "I played at the Kraków open"
    assert int(client.session["_auth_user_id"]) == claim.requester.pk
    entered.refresh_from_db()
    assert entered.user is None  # not until someone approves
    page = client.get(response["Location"]).content.decode()
    assert "Waiting for a decision" in page and "Approve" not in page


def test_ask_logged_in_without_a_player(client, asker, entered):
    client.force_login(asker)
    detail = client.get(reverse("player-detail", args=[entered.pk])).content.decode()
    assert reverse("player-claim", args=[entered.pk]) in detail
    asked = client.post(reverse("player-claim", args=[entered.pk]), {"message": "me"})
    assert asked.status_code == 302
    assert ClaimRequest.objects.get().requester == asker
    again = client.post(reverse("player-claim", args=[entered.pk]), {"message": "me"})
    assert again.status_code == 400 and "already asked" in again.content.decode()


def test_ask_page_refuses_a_player_with_an_account(client, asker, user_player):
    client.force_login(asker)
    response = client.get(reverse("player-claim", args=[user_player.pk]))
    assert response.status_code == 400 and "already belongs" in response.content.decode()


# --- Lists, detail and decisions on the web ------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_request_list_per_role(client, people, claim, who):
    _login(client, people[who])
    response = client.get(reverse("claim-request-list"))
    if who == "anonymous":
        assert response.status_code == 302
        return
    assert response.status_code == 200
    sees = reverse("claim-request-detail", args=[claim.pk]) in response.content.decode()
    assert sees == (who in ("organiser", "staff"))


def test_requester_sees_their_own_and_filters_work(client, claim, asker, staff):
    client.force_login(asker)
    url = reverse("claim-request-detail", args=[claim.pk])
    assert url in client.get(reverse("claim-request-list")).content.decode()
    client.force_login(staff)
    refused = client.get(reverse("claim-request-list"), {"status": "refused"}).content.decode()
    assert url not in refused
    every = client.get(reverse("claim-request-list"), {"status": "all"}).content.decode()
    assert url in every


@pytest.mark.parametrize("who", ROLES)
def test_request_detail_per_role(client, people, claim, who):
    _login(client, people[who])
    response = client.get(reverse("claim-request-detail", args=[claim.pk]))
    expected = {"anonymous": 302, "organiser": 200, "staff": 200}.get(who, 403)
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert "I played at the Kraków open" in html
        assert reverse("claim-request-approve", args=[claim.pk]) in html


@pytest.mark.parametrize("who", ROLES)
def test_approve_on_the_web_per_role(client, people, claim, entered, asker, who):
    _login(client, people[who])
    response = client.post(reverse("claim-request-approve", args=[claim.pk]), {"reason": ""})
    expected = {"anonymous": 302, "organiser": 302, "staff": 302}.get(who, 403)
    assert response.status_code == expected
    entered.refresh_from_db()
    assert (entered.user == asker) == (who in ("organiser", "staff"))


@pytest.mark.parametrize("who", ROLES)
def test_refuse_on_the_web_per_role(client, people, claim, who):
    _login(client, people[who])
    url = reverse("claim-request-refuse", args=[claim.pk])
    response = client.post(url, {"reason": "not her"})
    expected = {"anonymous": 302, "organiser": 302, "staff": 302}.get(who, 403)
    assert response.status_code == expected
    claim.refresh_from_db()
    assert (claim.status == ClaimStatus.REFUSED) == (who in ("organiser", "staff"))


def test_refuse_without_a_reason_shows_the_error(client, organiser, claim, asker):
    client.force_login(organiser)
    response = client.post(reverse("claim-request-refuse", args=[claim.pk]), {"reason": ""})
    assert response.status_code == 400 and "Say why" in response.content.decode()
    client.post(reverse("claim-request-refuse", args=[claim.pk]), {"reason": "not her"})
    client.force_login(asker)
    page = client.get(reverse("claim-request-detail", args=[claim.pk])).content.decode()
    assert "Refused" in page and "not her" in page


def test_decisions_need_post(client, staff, claim):
    client.force_login(staff)
    assert client.get(reverse("claim-request-approve", args=[claim.pk])).status_code == 405


# --- API -----------------------------------------------------------------------------------

DENIED = {"anonymous": 401, "player": 403, "other_organiser": 403}


@pytest.mark.parametrize("who", ROLES)
def test_api_list_per_role(people, claim, who):
    response = client_for(people[who]).get("/api/claim-requests/")
    assert response.status_code == (401 if who == "anonymous" else 200)
    if who != "anonymous":
        ids = [row["id"] for row in response.data["results"]]
        assert (claim.pk in ids) == (who in ("organiser", "staff"))


@pytest.mark.parametrize("who", ROLES)
def test_api_detail_per_role(people, claim, who):
    response = client_for(people[who]).get(f"/api/claim-requests/{claim.pk}/")
    assert response.status_code == DENIED.get(who, 200)
    if response.status_code == 200:
        assert response.data["requester"] == "olga" and response.data["status"] == "pending"


def test_api_ask(entered, asker, user_player):
    anonymous = client_for(None).post("/api/claim-requests/", {"player": entered.pk})
    assert anonymous.status_code == 401
    has_player = client_for(user_player.user).post("/api/claim-requests/", {"player": entered.pk})
    assert has_player.status_code == 400 and "already has a player" in str(has_player.data)
    unknown = client_for(asker).post("/api/claim-requests/", {"player": 999999})
    assert unknown.status_code == 400 and "player" in unknown.data
    done = client_for(asker).post(
        "/api/claim-requests/", {"player": entered.pk, "message": "it is me"}
    )
    assert done.status_code == 201, done.data
    assert (done.data["player_name"], done.data["status_label"]) == (
        "Offline Olga",
        "Waiting for a decision",
    )
    mine = client_for(asker).get("/api/claim-requests/", {"status": "pending"})
    assert [row["id"] for row in mine.data["results"]] == [done.data["id"]]
    bad_status = client_for(asker).get("/api/claim-requests/", {"status": "whatever"})
    assert bad_status.status_code == 400


@pytest.mark.parametrize("who", ROLES)
def test_api_approve_per_role(people, claim, entered, asker, who):
    response = client_for(people[who]).post(f"/api/claim-requests/{claim.pk}/approve/", {})
    assert response.status_code == DENIED.get(who, 200), response.data
    entered.refresh_from_db()
    assert (entered.user == asker) == (who in ("organiser", "staff"))
    if response.status_code == 200:
        assert response.data["status"] == "approved"


@pytest.mark.parametrize("who", ROLES)
def test_api_refuse_per_role(people, claim, who):
    response = client_for(people[who]).post(
        f"/api/claim-requests/{claim.pk}/refuse/", {"reason": "not her"}
    )
    assert response.status_code == DENIED.get(who, 200), response.data
    claim.refresh_from_db()
    assert (claim.status == ClaimStatus.REFUSED) == (who in ("organiser", "staff"))


def test_api_refusals_explain(claim, staff, entered):
    client = client_for(staff)
    no_reason = client.post(f"/api/claim-requests/{claim.pk}/refuse/", {})
    assert no_reason.status_code == 400 and "reason" in no_reason.data
    from players.models import Player

    Player.objects.filter(pk=entered.pk).update(user=UserFactory())
    taken = client.post(f"/api/claim-requests/{claim.pk}/approve/", {})
    assert taken.status_code == 400 and "already belongs" in str(taken.data)
    robot = PlayerFactory(display_name="Robot", is_robot=True)
    asked_robot = client_for(UserFactory()).post("/api/claim-requests/", {"player": robot.pk})
    assert asked_robot.status_code == 400


def test_api_ids_that_are_not_numbers_are_404(staff):
    client = client_for(staff)
    assert client.get("/api/claim-requests/abc/").status_code == 404
    assert client.get("/api/players/abc/").status_code == 404
