"""The game-by-game tables become a timeline in game order (docs/ratings.md §10).

Each change row of the lobby, monthly, doubles and Master tables gets its place in game order
(`at`: the game's played time, an adjustment's time), the player's games count after it, and,
for the new reason `replay`, the version of the same event it supersedes (`replaces`) and the
event's first version (`origin`). Existing game and adjustment rows get their `at` (the
append-only trigger is set aside for this one statement); `games_after` stays empty on them, so
the first `manage.py recompute_ratings` after deploying writes the versions in game order.
"""

import django.db.models.deletion
from django.db import migrations, models

FILL_AT = """
ALTER TABLE ratings_ratingchange DISABLE TRIGGER ratings_ratingchange_append_only;
UPDATE ratings_ratingchange c SET at = g.played_at FROM games_game g
 WHERE c.game_id = g.id AND c.reason = 'game' AND c.system <> 'elo';
UPDATE ratings_ratingchange SET at = created WHERE reason = 'adjustment' AND system <> 'elo';
ALTER TABLE ratings_ratingchange ENABLE TRIGGER ratings_ratingchange_append_only;
"""


def fill_at(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FILL_AT, params=None)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0006_remove_audit_entry")]

    operations = [
        migrations.AddField(
            model_name="ratingchange",
            name="at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="games_after",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="origin",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="ratings.ratingchange",
            ),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="replaces",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="replaced_by",
                to="ratings.ratingchange",
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="reason",
            field=models.CharField(
                choices=[
                    ("game", "Game"),
                    ("revert", "Revert"),
                    ("adjustment", "Manual adjustment"),
                    ("tournament", "Tournament Elo"),
                    ("anchor", "Pool anchoring"),
                    ("recompute", "Recompute from history"),
                    ("replay", "Recalculated in game order"),
                ],
                max_length=10,
            ),
        ),
        migrations.RemoveConstraint(
            model_name="ratingchange", name="rating_change_reason_known"
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "reason__in",
                        ["game", "revert", "adjustment", "tournament", "anchor", "recompute", "replay"],
                    )
                ),
                name="rating_change_reason_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.CheckConstraint(
                condition=models.Q(("reason", "replay"), _negated=True)
                | models.Q(("replaces__isnull", False), ("origin__isnull", False)),
                name="rating_change_replay_replaces",
            ),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["system", "at"], name="change_timeline"),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["system", "player", "at"], name="change_player_timeline"),
        ),
        migrations.RunPython(fill_at, migrations.RunPython.noop),
    ]
