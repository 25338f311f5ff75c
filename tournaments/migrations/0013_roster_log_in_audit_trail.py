"""The roster's log lives in one place, the audit trail: `TeamRosterChange` goes (issue 27).

Every roster change was written twice, as a `TeamRosterChange` row and as a `team_create` or
`team_roster` entry of the audit trail with the same kind, rosters, actor and reason. Each row
is matched to its entry (same action, championship, team name, details and reason, written
within a minute); a row without one gets one now, with its own time and actor and the team's id
in its details, so no line of any roster's log is lost. Entries are only added: the trail is
append-only. Reversing rebuilds the rows from the entries.
"""

import datetime as dt

from django.db import migrations
from django.db.models import Q

SAME_CHANGE = dt.timedelta(minutes=1)


def _logged(change) -> tuple[str, dict]:
    if change.kind == "created":
        return "team_create", {"roster": list(change.after or [])}
    return "team_roster", {
        "kind": change.kind,
        "before": list(change.before or []),
        "after": list(change.after or []),
    }


def keep_roster_log(apps, schema_editor):
    Change = apps.get_model("tournaments", "TeamRosterChange")
    AuditEntry = apps.get_model("players", "AuditEntry")
    matched: set[int] = set()
    for change in Change.objects.select_related("team", "actor").order_by("created", "id"):
        team = change.team
        action, details = _logged(change)
        candidates = AuditEntry.objects.filter(
            action=action,
            championship_id=team.championship_id,
            target=team.name,
            reason=change.reason,
            created__range=(change.created - SAME_CHANGE, change.created + SAME_CHANGE),
        ).exclude(pk__in=matched)
        found = next(
            (
                entry
                for entry in candidates.order_by("created", "id")
                if {k: v for k, v in entry.details.items() if k != "team"} == details
            ),
            None,
        )
        if found is not None:
            matched.add(found.pk)
            continue
        added = AuditEntry.objects.create(
            actor_id=change.actor_id,
            actor_name=change.actor.username if change.actor_id else "",
            action=action,
            target=team.name[:200],
            reason=change.reason,
            details={"team": team.pk, **details},
            championship_id=team.championship_id,
            created=change.created,
        )
        matched.add(added.pk)


def restore_roster_log(apps, schema_editor):
    Change = apps.get_model("tournaments", "TeamRosterChange")
    Team = apps.get_model("tournaments", "Team")
    AuditEntry = apps.get_model("players", "AuditEntry")
    for team in Team.objects.all():
        entries = AuditEntry.objects.filter(
            championship_id=team.championship_id, action__in=["team_create", "team_roster"]
        ).filter(Q(details__team=team.pk) | Q(details__team__isnull=True, target=team.name))
        for entry in entries.order_by("created", "id"):
            created = entry.action == "team_create"
            row = Change.objects.create(
                team=team,
                kind="created" if created else entry.details.get("kind", ""),
                actor_id=entry.actor_id,
                before=[] if created else entry.details.get("before", []),
                after=entry.details.get("roster" if created else "after", []),
                reason=entry.reason,
            )
            Change.objects.filter(pk=row.pk).update(created=entry.created)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_age_confirmation"),
        ("players", "0011_notice_about"),
    ]

    operations = [
        migrations.RunPython(keep_roster_log, restore_roster_log),
        migrations.DeleteModel(name="TeamRosterChange"),
    ]
