"""The ratings audit trail now lives in `players.AuditEntry` (copied by 0005).

Dropping the table drops its append-only trigger (migration 0002) with it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0005_copy_audit_to_trail"),
    ]

    operations = [
        migrations.DeleteModel(name="AuditEntry"),
    ]
