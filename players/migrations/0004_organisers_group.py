"""A fresh deployment has the organisers group, so staff can grant the role from the roles page.

The group holds no Django permissions: the site checks membership (players.roles.is_organiser),
and the Django admin stays for staff. The name is written out, not imported, because a
migration must not change when the code does.
"""

from django.db import migrations

ORGANISERS_GROUP = "organisers"


def create_organisers_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).get_or_create(name=ORGANISERS_GROUP)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("players", "0003_player_created_by_audit_claims"),
    ]

    # Going back leaves the group: it may have members by then.
    operations = [migrations.RunPython(create_organisers_group, migrations.RunPython.noop)]
