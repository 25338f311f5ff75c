"""A team's roster log is kept in one place, the audit trail (issue 27): `TeamRosterChange`
wrote every change a second time."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from players.models import AuditEntry
from tests.factories import PlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import RosterChangeKind, Team

BEFORE = [("tournaments", "0012_age_confirmation"), ("players", "0011_notice_about")]


@pytest.mark.django_db
def test_a_roster_change_is_written_once_and_read_from_the_trail(organiser):
    championship = services.championship_create(
        actor=organiser, name="Team Worlds", year=2026, category="world"
    )
    players = [PlayerFactory(country="GB") for _ in range(6)]
    team = services.team_create(
        actor=organiser, championship=championship, name="GBR A", country="GB", roster=players
    )
    services.team_roster_set(
        actor=organiser, team=team, roster=[players[1], players[0], *players[2:]], reason="form"
    )
    entries = AuditEntry.objects.filter(championship_id=championship.pk, details__team=team.pk)
    assert sorted(entries.values_list("action", flat=True)) == ["team_create", "team_roster"]
    log = selectors.roster_changes(team)
    assert [(c.kind, c.reason) for c in log] == [
        (RosterChangeKind.BOARD_ORDER, "form"),
        (RosterChangeKind.CREATED, ""),
    ]
    assert log[0].before[:2] == [players[0].pk, players[1].pk]
    assert log[0].after[:2] == [players[1].pk, players[0].pk]
    assert log[0].actor == organiser and log[0].get_kind_display() == "Board order changed"


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_line_of_the_log_and_writes_none_twice():
    organiser = UserFactory(username="olga")
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    championship = old.get_model("tournaments", "Championship").objects.create(
        name="Old Cup", year=2025
    )
    team = old.get_model("tournaments", "Team").objects.create(
        championship=championship, name="NZL"
    )
    Change = old.get_model("tournaments", "TeamRosterChange")
    OldEntry = old.get_model("players", "AuditEntry")
    then = timezone.now() - dt.timedelta(days=30)
    # Written twice by the old services: a row and its audit entry.
    created = Change.objects.create(team=team, kind="created", actor_id=organiser.pk, after=[1, 2])
    Change.objects.filter(pk=created.pk).update(created=then)
    OldEntry.objects.create(
        actor_id=organiser.pk,
        actor_name="olga",
        action="team_create",
        target="NZL",
        details={"roster": [1, 2]},
        championship_id=championship.pk,
        created=then + dt.timedelta(seconds=1),
    )
    # A row with no entry of its own (the log must not lose it).
    orphan = Change.objects.create(
        team=team, kind="substitution", before=[1, 2], after=[3, 2], reason="ill"
    )
    Change.objects.filter(pk=orphan.pk).update(created=then + dt.timedelta(days=1))

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    log = selectors.roster_changes(Team.objects.get(pk=team.pk))
    assert [(c.kind, c.before, c.after, c.reason) for c in log] == [
        ("substitution", [1, 2], [3, 2], "ill"),
        ("created", [], [1, 2], ""),
    ]
    assert log[1].actor == organiser
    assert log[0].created == then + dt.timedelta(days=1)
    assert AuditEntry.objects.filter(championship_id=championship.pk).count() == 2
