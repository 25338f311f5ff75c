"""Copy the championship audit trail into the one site-wide trail (`players.AuditEntry`).

Every row keeps its actor (and the actor's username), action, target, reason, details, time and
its championship and event, as plain ids. Inserting is allowed by the append-only trigger. The
next migration drops the old table.
"""

from django.db import migrations

BATCH = 1000


def copy_entries(apps, schema_editor):
    Old = apps.get_model("tournaments", "AuditEntry")
    New = apps.get_model("players", "AuditEntry")
    rows = []
    for old in Old.objects.select_related("actor").order_by("created", "id").iterator():
        rows.append(
            New(
                actor_id=old.actor_id,
                actor_name=old.actor.username if old.actor_id else "",
                action=old.action,
                target=old.target,
                reason=old.reason,
                details=old.details,
                created=old.created,
                championship_id=old.championship_id,
                event_id=old.event_id,
            )
        )
        if len(rows) >= BATCH:
            New.objects.bulk_create(rows)
            rows = []
    New.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_audit_action_labels"),
        ("players", "0006_audit_trail_object_ids"),
    ]

    operations = [migrations.RunPython(copy_entries, migrations.RunPython.noop)]
