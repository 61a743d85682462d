"""Automatic moves: a Move made by the server, and a race's choice to make them.

Adding a column with a default rebuilds games_move on SQLite, which drops its
append-only triggers (see 0002), so they are put back after the change, and
after the change is undone.
"""

from importlib import import_module

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

_TRIGGERS = import_module("games.migrations.0002_append_only_triggers")


def restore_sqlite_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _TRIGGERS.restore_sqlite_triggers(schema_editor, "games_move")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_i18n_verbose_names"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.AddField(
            model_name="move",
            name="automatic",
            field=models.BooleanField(default=False, verbose_name="automatic"),
        ),
        migrations.AddField(
            model_name="race",
            name="automatic_moves",
            field=models.BooleanField(default=False, verbose_name="automatic moves"),
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
