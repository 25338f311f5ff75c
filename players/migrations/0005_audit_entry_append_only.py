"""The audit trail is append-only in the database too (PostgreSQL; SQLite is for local runs).

Deleting a user or player sets its foreign keys to NULL (the line keeps its names in
`actor_name` and `target`); every other update, and every delete, is refused.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION audit_entry_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'audit_entry is append-only: rows cannot be deleted'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF (NEW.id, NEW.actor_name, NEW.action, NEW.target, NEW.reason, NEW.details, NEW.created)
            IS DISTINCT FROM
       (OLD.id, OLD.actor_name, OLD.action, OLD.target, OLD.reason, OLD.details, OLD.created)
        OR (NEW.actor_id IS NOT NULL AND NEW.actor_id IS DISTINCT FROM OLD.actor_id)
        OR (NEW.subject_user_id IS NOT NULL
            AND NEW.subject_user_id IS DISTINCT FROM OLD.subject_user_id)
        OR (NEW.subject_player_id IS NOT NULL
            AND NEW.subject_player_id IS DISTINCT FROM OLD.subject_player_id)
    THEN
        RAISE EXCEPTION 'audit_entry is append-only: rows cannot be changed'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER audit_entry_append_only
    BEFORE UPDATE OR DELETE ON audit_entry
    FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS audit_entry_append_only ON audit_entry;
DROP FUNCTION IF EXISTS audit_entry_append_only();
"""


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("players", "0004_organisers_group")]

    operations = [migrations.RunPython(_run(CREATE), _run(DROP))]
