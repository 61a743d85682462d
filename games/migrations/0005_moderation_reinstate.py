"""The `reinstate` moderation act: a void taken back by a new event.

Widening the action's choices rebuilds games_moderationaction on SQLite,
which drops its append-only triggers (see 0002), so they are put back after
the change, and after the change is undone.
"""

from importlib import import_module

from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

_TRIGGERS = import_module("games.migrations.0002_append_only_triggers")


def restore_sqlite_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _TRIGGERS.restore_sqlite_triggers(schema_editor, "games_moderationaction")


_ACTIONS = ["void", "reinstate", "flag", "clear_flag", "ban", "unban", "verify"]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_race_winnable_deal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.RemoveConstraint(
            model_name="moderationaction",
            name="moderation_action_valid",
        ),
        migrations.AlterField(
            model_name="moderationaction",
            name="action",
            field=models.CharField(
                choices=[
                    ("void", "Void"),
                    ("reinstate", "Reinstate"),
                    ("flag", "Flag"),
                    ("clear_flag", "Clear Flag"),
                    ("ban", "Ban"),
                    ("unban", "Unban"),
                    ("verify", "Verify"),
                ],
                max_length=12,
            ),
        ),
        migrations.AddConstraint(
            model_name="moderationaction",
            constraint=models.CheckConstraint(
                condition=models.Q(("action__in", _ACTIONS)),
                name="moderation_action_valid",
            ),
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
