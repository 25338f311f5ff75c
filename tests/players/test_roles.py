"""Site-wide roles: the organisers group exists from the start; staff grant organiser, only
superusers grant staff; every change needs a reason and is audited; page and API per role."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from players import services
from players.models import AuditAction, AuditEntry
from players.roles import ORGANISERS_GROUP, is_organiser
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.players.conftest import ROLES

pytestmark = pytest.mark.django_db


def _fresh(user):
    # roles.is_organiser caches its answer on the user object.
    return type(user).objects.get(pk=user.pk)


def test_a_fresh_deployment_has_the_organisers_group_without_permissions():
    group = Group.objects.get(name=ORGANISERS_GROUP)
    assert not group.permissions.exists()


def test_staff_grant_and_withdraw_organiser_with_a_reason_and_an_audit_entry(staff):
    newcomer = PlayerFactory(display_name="Ingrid", with_user=True)
    services.role_grant(
        actor=staff, user=newcomer.user, role="organiser", reason="runs the Oslo open"
    )
    assert is_organiser(_fresh(newcomer.user))
    services.role_withdraw(actor=staff, user=newcomer.user, role="organiser", reason="stepped down")
    assert not is_organiser(_fresh(newcomer.user))
    entries = list(AuditEntry.objects.order_by("id"))
    assert [e.action for e in entries] == [
        AuditAction.ORGANISER_GRANT,
        AuditAction.ORGANISER_WITHDRAW,
    ]
    assert [e.reason for e in entries] == ["runs the Oslo open", "stepped down"]
    assert all(e.actor == staff and e.subject_player == newcomer for e in entries)
    assert entries[0].subject_user == newcomer.user and entries[0].target == newcomer.user.username


def test_grant_recreates_a_deleted_group(staff, user_player):
    Group.objects.filter(name=ORGANISERS_GROUP).delete()
    services.role_grant(actor=staff, user=user_player.user, role="organiser", reason="r")
    assert is_organiser(_fresh(user_player.user))


@pytest.mark.parametrize(
    ("change", "holds", "message"),
    [("grant", True, "already an organiser"), ("withdraw", False, "is not an organiser")],
)
def test_no_change_is_refused_and_not_audited(staff, user_player, change, holds, message):
    if holds:
        user_player.user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    do = services.role_grant if change == "grant" else services.role_withdraw
    with pytest.raises(ValidationError, match=message):
        do(actor=staff, user=user_player.user, role="organiser", reason="again")
    assert not AuditEntry.objects.exists()


def test_a_reason_is_required(staff, user_player):
    with pytest.raises(ValidationError) as caught:
        services.role_grant(actor=staff, user=user_player.user, role="organiser", reason="  ")
    assert "reason" in caught.value.message_dict


def test_organisers_and_players_grant_nothing(organiser, user_player, other_player):
    for actor in (organiser, user_player.user):
        with pytest.raises(PermissionDenied):
            services.role_grant(actor=actor, user=other_player.user, role="organiser", reason="r")
    assert not AuditEntry.objects.exists()


def test_only_superusers_grant_and_withdraw_staff(staff, admin_user, user_player):
    with pytest.raises(PermissionDenied):
        services.role_grant(actor=staff, user=user_player.user, role="staff", reason="r")
    services.role_grant(actor=admin_user, user=user_player.user, role="staff", reason="helps")
    assert _fresh(user_player.user).is_staff
    with pytest.raises(PermissionDenied):
        services.role_withdraw(actor=staff, user=user_player.user, role="staff", reason="r")
    services.role_withdraw(actor=admin_user, user=user_player.user, role="staff", reason="done")
    assert not _fresh(user_player.user).is_staff
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        AuditAction.STAFF_GRANT,
        AuditAction.STAFF_WITHDRAW,
    ]


def test_a_superuser_keeps_staff(admin_user):
    with pytest.raises(ValidationError, match="your own"):
        services.role_withdraw(actor=admin_user, user=admin_user, role="staff", reason="r")
    other_superuser = UserFactory(is_staff=True, is_superuser=True)
    with pytest.raises(ValidationError, match="superuser"):
        services.role_withdraw(actor=admin_user, user=other_superuser, role="staff", reason="r")


def test_names_are_usernames_or_player_names(staff):
    from players.selectors import user_for_name

    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    assert user_for_name("INGRID") == ingrid.user
    assert user_for_name(ingrid.user.username.upper()) == ingrid.user
    PlayerFactory(display_name="Offline")
    with pytest.raises(ValidationError, match="no account yet"):
        user_for_name("offline")
    with pytest.raises(ValidationError, match="No account or player"):
        user_for_name("nobody")
    # A username that is another person's player name is ambiguous.
    UserFactory(username="tomas")
    PlayerFactory(display_name="Tomas", with_user=True)
    with pytest.raises(ValidationError, match="give the username"):
        user_for_name("Tomas")


# --- The page ------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_roles_page_is_for_staff_only(client, people, who):
    if people[who] is not None:
        client.force_login(people[who])
    response = client.get(reverse("player-roles"))
    expected = {"anonymous": 302, "staff": 200}.get(who, 403)
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if who == "staff":
        html = response.content.decode()
        assert people["organiser"].username in html and 'id="role-change"' in html


def test_staff_grant_on_the_page_and_see_it_in_recent_changes(client, staff, user_player):
    client.force_login(staff)
    response = client.post(
        reverse("player-roles"),
        {
            "name": user_player.display_name,
            "role": "organiser",
            "change": "grant",
            "reason": "runs the Zurich open",
        },
    )
    assert response.status_code == 302
    assert is_organiser(_fresh(user_player.user))
    html = client.get(reverse("player-roles")).content.decode()
    assert "Organiser role granted" in html and "runs the Zurich open" in html


def test_page_errors_name_the_field_and_change_nothing(client, staff, user_player):
    client.force_login(staff)
    response = client.post(
        reverse("player-roles"),
        {"name": "nobody-here", "role": "organiser", "change": "grant", "reason": "r"},
    )
    assert response.status_code == 400
    assert "No account or player is called" in response.content.decode()
    # Staff who are not superusers are not offered the staff role at all.
    staff_role = client.post(
        reverse("player-roles"),
        {"name": user_player.user.username, "role": "staff", "change": "grant", "reason": "r"},
    )
    assert staff_role.status_code == 400
    assert not _fresh(user_player.user).is_staff
    assert not AuditEntry.objects.exists()


# --- The API -------------------------------------------------------------------------------

DENIED = {"anonymous": 401, "player": 403, "organiser": 403, "other_organiser": 403}


@pytest.mark.parametrize("who", ROLES)
def test_api_role_list_for_staff_only(people, who):
    response = client_for(people[who]).get("/api/roles/")
    assert response.status_code == DENIED.get(who, 200)
    if who == "staff":
        rows = {row["username"]: row for row in response.data["results"]}
        organiser = rows[people["organiser"].username]
        assert organiser["is_organiser"] and not organiser["is_staff"]
        assert organiser["player"]["display_name"]
        assert rows[people["staff"].username]["is_staff"]
        assert people["player"].username not in rows


@pytest.mark.parametrize("who", ROLES)
def test_api_grant_for_staff_only(people, other_player, who):
    response = client_for(people[who]).post(
        "/api/roles/grant/",
        {"name": other_player.user.username, "site_role": "organiser", "reason": "helps out"},
        format="json",
    )
    assert response.status_code == DENIED.get(who, 200), response.data
    assert is_organiser(_fresh(other_player.user)) == (who == "staff")
    if who == "staff":
        assert response.data["is_organiser"] is True
        entry = AuditEntry.objects.get()
        assert (entry.actor, entry.reason) == (people["staff"], "helps out")


def test_api_withdraw_and_clear_field_errors(staff, organiser, admin_user):
    client = client_for(staff)
    missing = client.post("/api/roles/withdraw/", {}, format="json")
    assert missing.status_code == 400
    assert {"name", "site_role", "reason"} <= set(missing.data)
    bad_role = client.post(
        "/api/roles/grant/",
        {"name": organiser.username, "site_role": "king", "reason": "r"},
        format="json",
    )
    assert bad_role.status_code == 400 and "site_role" in bad_role.data
    unknown = client.post(
        "/api/roles/grant/", {"name": "nobody", "site_role": "organiser", "reason": "r"}
    )
    assert unknown.status_code == 400 and "No account" in str(unknown.data["name"])
    again = client.post(
        "/api/roles/grant/", {"name": organiser.username, "site_role": "organiser", "reason": "r"}
    )
    assert again.status_code == 400 and "already an organiser" in str(again.data["name"])
    staff_by_staff = client.post(
        "/api/roles/grant/", {"name": organiser.username, "site_role": "staff", "reason": "r"}
    )
    assert staff_by_staff.status_code == 403
    done = client.post(
        "/api/roles/withdraw/",
        {"name": organiser.username, "site_role": "organiser", "reason": "left"},
    )
    assert done.status_code == 200 and done.data["is_organiser"] is False
    by_superuser = client_for(admin_user).post(
        "/api/roles/grant/", {"name": organiser.username, "site_role": "staff", "reason": "r"}
    )
    assert by_superuser.status_code == 200 and by_superuser.data["is_staff"] is True


@pytest.mark.parametrize("who", ROLES)
def test_api_audit_trail_for_staff_only(people, entered, who):
    response = client_for(people[who]).get("/api/audit/")
    assert response.status_code == DENIED.get(who, 200)
    if who == "staff":
        [row] = response.data["results"]
        assert row["action"] == "player_create" and row["action_label"] == "Player entered"
        assert row["actor"] == people["organiser"].username
        assert row["subject_player"] == entered.pk
        filtered = client_for(people[who]).get("/api/audit/", {"action": "staff_grant"})
        assert filtered.data["results"] == []
        bad = client_for(people[who]).get("/api/audit/", {"action": "nope"})
        assert bad.status_code == 400 and "action" in bad.data
