"""Games refused for a match get a table of their own (the sweep read the audit trail before).

Existing refusals are copied from the audit entries `game_not_counted` (the first per game,
keeping its time); the audit entries stay as they are.
"""

import django.db.models.deletion
from django.db import migrations, models


def copy_refusals(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    Game = apps.get_model("games", "Game")
    UncountedGame = apps.get_model("tournaments", "UncountedGame")
    seen = set()
    entries = AuditEntry.objects.filter(action="game_not_counted").order_by("created", "id")
    for entry in entries.iterator():
        details = entry.details if isinstance(entry.details, dict) else {}
        game_id, match_id = details.get("game_id"), details.get("match_id")
        if not isinstance(game_id, int) or game_id in seen:
            continue
        seen.add(game_id)
        if not Game.objects.filter(pk=game_id).exists():
            continue
        row = UncountedGame.objects.create(
            game_id=game_id,
            match_id=match_id if isinstance(match_id, int) and match_id > 0 else None,
            reason=entry.reason,
        )
        UncountedGame.objects.filter(pk=row.pk).update(created=entry.created)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_record_body_size_hash'),
        ('tournaments', '0002_field_bounds'),
    ]

    operations = [
        migrations.CreateModel(
            name='UncountedGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('match_id', models.PositiveBigIntegerField(blank=True, null=True)),
                ('reason', models.TextField()),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='uncounted', to='games.game')),
            ],
            options={
                'ordering': ['-created', '-id'],
            },
        ),
        migrations.RunPython(copy_refusals, migrations.RunPython.noop),
    ]
