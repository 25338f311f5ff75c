"""Copy the ratings audit trail into the one site-wide trail (`players.AuditEntry`).

Every row keeps its actor (and the actor's username), action, reason, details and time; its
player becomes the subject (and the target label, the player's name now), its rating change,
review and title become plain ids. Inserting is allowed by the append-only trigger. The next
migration drops the old table.
"""

from django.db import migrations

BATCH = 1000


def _event_id(old):
    """A tournament Elo recalculation named its event in the details only."""
    if old.action == "elo_recalculate" and isinstance((old.details or {}).get("event"), int):
        return old.details["event"]
    return None


def copy_entries(apps, schema_editor):
    Old = apps.get_model("ratings", "AuditEntry")
    New = apps.get_model("players", "AuditEntry")
    rows = []
    entries = Old.objects.select_related("actor", "player").order_by("created", "id")
    for old in entries.iterator():
        rows.append(
            New(
                actor_id=old.actor_id,
                actor_name=old.actor.username if old.actor_id else "",
                action=old.action,
                subject_player_id=old.player_id,
                target=old.player.display_name[:200] if old.player_id else "",
                reason=old.reason,
                details=old.details,
                created=old.created,
                rating_change_id=old.change_id,
                review_id=old.review_id,
                title_id=old.title_id,
                event_id=_event_id(old),
            )
        )
        if len(rows) >= BATCH:
            New.objects.bulk_create(rows)
            rows = []
    New.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0004_ratingchange_params_version"),
        ("players", "0006_audit_trail_object_ids"),
    ]

    operations = [migrations.RunPython(copy_entries, migrations.RunPython.noop)]
