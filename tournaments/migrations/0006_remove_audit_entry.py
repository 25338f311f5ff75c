"""The championship audit trail now lives in `players.AuditEntry` (copied by 0005)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_copy_audit_to_trail"),
    ]

    operations = [
        migrations.DeleteModel(name="AuditEntry"),
    ]
