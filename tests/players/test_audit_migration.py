"""The old tournaments and ratings audit trails are copied into the one trail, then dropped."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from players.models import AuditEntry
from tests.factories import PlayerFactory

OLD = [("tournaments", "0004_audit_action_labels"), ("ratings", "0004_ratingchange_params_version")]


@pytest.mark.django_db(transaction=True)
def test_old_entries_are_copied_with_their_actor_time_reason_details_and_objects(admin_user):
    player = PlayerFactory(display_name="Ingrid")
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    old = executor.loader.project_state(OLD).apps
    Championship = old.get_model("tournaments", "Championship")
    championship = Championship.objects.create(
        name="Audit Open", year=2025, category="open", created_by_id=admin_user.pk
    )
    old.get_model("tournaments", "AuditEntry").objects.create(
        actor_id=admin_user.pk,
        championship=championship,
        action="match_rule",
        target="R1 M1",
        details={"match": 7},
        reason="no show",
    )
    old.get_model("ratings", "AuditEntry").objects.create(
        actor_id=admin_user.pk, action="adjustment", player_id=player.pk, reason="restored"
    )
    # The refusals copy (tournaments 0003) read the old table too; it still runs on it.
    importlib.import_module("tournaments.migrations.0003_uncounted_games").copy_refusals(old, None)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    ruled = AuditEntry.objects.get(action="match_rule")
    assert (ruled.actor_id, ruled.actor_name) == (admin_user.pk, admin_user.username)
    assert (ruled.championship_id, ruled.target, ruled.reason) == (
        championship.pk,
        "R1 M1",
        "no show",
    )
    assert ruled.details == {"match": 7} and ruled.get_action_display() == "Match ruled"
    adjusted = AuditEntry.objects.get(action="adjustment")
    assert (adjusted.subject_player_id, adjusted.target, adjusted.reason) == (
        player.pk,
        "Ingrid",
        "restored",
    )
    assert adjusted.get_action_display() == "Manual adjustment"
    tables = connection.introspection.table_names()
    assert "tournaments_auditentry" not in tables and "ratings_auditentry" not in tables
