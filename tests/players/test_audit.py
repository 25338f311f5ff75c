"""The audit trail: one writer, a registry of actions with words, append-only in PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from players.audit.services import audit
from players.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_audit_writes_who_what_whom_why_and_keeps_names():
    actor = UserFactory(username="chief")
    subject = PlayerFactory(display_name="Ingrid", with_user=True)
    entry = audit(
        actor=actor,
        action=AuditAction.ORGANISER_GRANT,
        subject_user=subject.user,
        subject_player=subject,
        reason="runs the Oslo open",
        details={"role": "organiser"},
    )
    entry.refresh_from_db()
    assert (entry.actor, entry.actor_name, entry.target) == (actor, "chief", "Ingrid")
    assert entry.get_action_display() == "Organiser role granted"
    assert entry.details == {"role": "organiser"} and entry.reason == "runs the Oslo open"
    assert AuditEntry._meta.db_table == "audit_entry"


def test_every_action_has_words_not_a_code():
    for action in AuditAction:
        assert action.label and action.label != action.value and "_" not in action.label


def test_unknown_action_is_a_bug():
    with pytest.raises(ValueError):
        audit(actor=None, action="made_up")
    assert not AuditEntry.objects.exists()


def test_anonymous_or_worker_actor_is_stored_as_nobody():
    from django.contrib.auth.models import AnonymousUser

    entry = audit(actor=AnonymousUser(), action=AuditAction.CLAIM_REQUEST_CREATE, target="x")
    assert entry.actor is None and entry.actor_name == ""


def test_database_refuses_to_change_or_delete_an_entry():
    entry = audit(actor=UserFactory(), action=AuditAction.STAFF_GRANT, reason="first")
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).delete()
    other = UserFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(actor=other)
    entry.refresh_from_db()
    assert entry.reason == "first"


def test_deleting_a_user_or_player_keeps_the_entry_with_its_names():
    actor = UserFactory(username="gone-organiser")
    subject = PlayerFactory(display_name="Gone Player", with_user=True)
    entry = audit(
        actor=actor,
        action=AuditAction.ORGANISER_GRANT,
        subject_user=subject.user,
        subject_player=subject,
    )
    actor.delete()
    subject.user.delete()
    subject.delete()
    entry.refresh_from_db()
    assert (entry.actor_id, entry.subject_user_id, entry.subject_player_id) == (None, None, None)
    assert (entry.actor_name, entry.target) == ("gone-organiser", "Gone Player")


def test_admin_reads_the_trail_but_cannot_write_it(client, admin_user):
    entry = audit(actor=admin_user, action=AuditAction.STAFF_GRANT, target="someone")
    client.force_login(admin_user)
    assert client.get("/admin/players/auditentry/").status_code == 200
    assert client.get(f"/admin/players/auditentry/{entry.pk}/change/").status_code == 200
    assert client.get("/admin/players/auditentry/add/").status_code == 403
    assert (
        client.post(f"/admin/players/auditentry/{entry.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
