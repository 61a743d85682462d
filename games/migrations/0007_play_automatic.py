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
_NAMES = ("games_move_no_update", "games_move_no_delete")


def restore_sqlite_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return  # PostgreSQL adds the column in place: its triggers stay
    for name in _NAMES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}", params=None)
    for statement in _TRIGGERS.SQLITE_INSTALL:
        if any(f"TRIGGER {name} " in statement for name in _NAMES):
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_race_deal_index"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.AddField(
            model_name="move",
            name="automatic",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="race",
            name="automatic_moves",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
