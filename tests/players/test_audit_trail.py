"""The one audit trail: championships and ratings write it, staff read it with names and labels."""

from __future__ import annotations

import pytest
from django.db import models
from django.urls import reverse

from players.audit.registry import is_audit_action, register_audit_actions
from players.models import AuditEntry
from ratings import services as rating_services
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def trail(organiser, admin_user):
    championship = tournament_services.championship_create(
        actor=organiser, name="Oslo Open", year=2026, category="open", published=True
    )
    ingrid = PlayerFactory(display_name="Ingrid")
    change = rating_services.rating_adjust(
        actor=admin_user, player_id=ingrid.pk, system="lobby", delta=5.0, reason="restored"
    )
    return championship, ingrid, change


def test_every_app_writes_the_one_trail_with_object_ids(trail):
    championship, ingrid, change = trail
    created = AuditEntry.objects.get(action="championship_create")
    assert created.championship_id == championship.pk
    assert created.get_action_display() == "Championship created"
    adjusted = AuditEntry.objects.get(action="adjustment")
    assert (adjusted.subject_player, adjusted.rating_change_id) == (ingrid, change.pk)
    assert adjusted.target == "Ingrid" and adjusted.reason == "restored"


def test_the_staff_api_filters_and_names_the_objects(trail, admin_user):
    championship, ingrid, change = trail
    client = client_for(admin_user)
    url = "/api/audit/"
    rows = client.get(url, {"championship": championship.pk}).json()["results"]
    assert [r["action_label"] for r in rows] == ["Championship created"]
    assert rows[0]["objects"] == [{"kind": "Championship", "name": "Oslo Open 2026"}]
    rows = client.get(url, {"area": "ratings"}).json()["results"]
    assert [r["action"] for r in rows] == ["adjustment"]
    assert rows[0]["objects"][0]["kind"] == "Rating change"
    assert "Ingrid" in rows[0]["objects"][0]["name"]
    assert client.get(url, {"rating_change": change.pk}).json()["count"] == 1
    assert client.get(url, {"player": ingrid.pk}).json()["count"] == 1
    assert client.get(url, {"area": "nowhere"}).status_code == 400
    assert client.get(url, {"championship": "x"}).status_code == 400


def test_the_staff_page_shows_labels_and_names_never_codes(trail, admin_user, client):
    championship, _ingrid, _change = trail
    client.force_login(admin_user)
    html = client.get(reverse("audit-log")).content.decode()
    assert "Championship created" in html and "Manual adjustment" in html
    assert "Oslo Open 2026" in html and "Ingrid" in html
    assert "championship_create" not in html.split("<table", 1)[1]
    only = client.get(reverse("audit-log"), {"championship": championship.pk}).content.decode()
    only = only.split("<table", 1)[1]  # the filter's options name every action
    assert "Championship created" in only and "Manual adjustment" not in only
    by_name = client.get(reverse("audit-log"), {"player_name": "ingrid"}).content.decode()
    by_name = by_name.split("<table", 1)[1]
    assert "Manual adjustment" in by_name and "Championship created" not in by_name


def test_the_registry_holds_every_app_and_refuses_a_value_declared_twice():
    assert all(map(is_audit_action, ["organiser_grant", "match_rule", "recompute"]))

    class Clash(models.TextChoices):
        MATCH_RULE = "match_rule", "Ruled again"

    with pytest.raises(ValueError, match="declared twice"):
        register_audit_actions(Clash, area="clash", label="Clash")
