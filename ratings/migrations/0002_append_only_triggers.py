"""RatingChange and AuditEntry are append-only: on PostgreSQL a trigger refuses UPDATE and DELETE.

TRUNCATE (used by test database flushes) is not a row operation and stays possible. SQLite, the
zero-setup local database, gets no trigger: there the services are the only writers.
"""

from django.db import migrations

TABLES = ["ratings_ratingchange", "ratings_auditentry"]

CREATE_FUNCTION = """
CREATE OR REPLACE FUNCTION ratings_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(CREATE_FUNCTION, params=None)
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION ratings_refuse_change()"
        )


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS ratings_refuse_change()")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
