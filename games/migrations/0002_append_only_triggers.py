"""Triggers that make the move log and the moderation log append-only in SQL.

The models refuse updates and deletes too; these stop raw SQL and other
programs. PostgreSQL refuses them unconditionally (Django's test flush uses
TRUNCATE, which row triggers do not see). SQLite's flush is DELETE FROM, so
its triggers ask the connection's `sultan_log_erasure_allowed()` function,
registered by games.store.append_only and false unless a test teardown says so; a
connection without the function (the sqlite3 shell) fails too.

SQLite drops triggers when Django rebuilds a table: a later migration that
alters games_move or games_moderationaction on SQLite must run these again.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# Moderation rows may change in one way only: the moderator's account is
# deleted and the foreign key goes null (the name snapshot stays).
_MODERATION_UNCHANGED = " AND ".join(
    f"NEW.{c} IS NOT DISTINCT FROM OLD.{c}"
    for c in ("id", "moderator_name", "action", "game_id", "player_id", "reason", "created_at")
)

POSTGRES_INSTALL = f"""
CREATE OR REPLACE FUNCTION games_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END $$;

CREATE OR REPLACE FUNCTION games_moderation_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.moderator_id IS NULL AND {_MODERATION_UNCHANGED} THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END $$;

CREATE TRIGGER games_move_append_only BEFORE UPDATE OR DELETE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_refuse_change();
CREATE TRIGGER games_moderationaction_append_only
    BEFORE UPDATE OR DELETE ON games_moderationaction
    FOR EACH ROW EXECUTE FUNCTION games_moderation_guard();
"""

POSTGRES_REMOVE = """
DROP TRIGGER IF EXISTS games_move_append_only ON games_move;
DROP TRIGGER IF EXISTS games_moderationaction_append_only ON games_moderationaction;
DROP FUNCTION IF EXISTS games_refuse_change();
DROP FUNCTION IF EXISTS games_moderation_guard();
"""

_SQLITE_MODERATION_UNCHANGED = _MODERATION_UNCHANGED.replace("IS NOT DISTINCT FROM", "IS")

SQLITE_INSTALL = [
    """CREATE TRIGGER games_move_no_update BEFORE UPDATE ON games_move
    BEGIN SELECT RAISE(ABORT, 'games_move is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_move_no_delete BEFORE DELETE ON games_move
    WHEN NOT sultan_log_erasure_allowed()
    BEGIN SELECT RAISE(ABORT, 'games_move is append-only: DELETE refused'); END""",
    f"""CREATE TRIGGER games_moderationaction_no_update BEFORE UPDATE ON games_moderationaction
    WHEN NOT (NEW.moderator_id IS NULL AND {_SQLITE_MODERATION_UNCHANGED})
    BEGIN SELECT RAISE(ABORT, 'games_moderationaction is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_moderationaction_no_delete BEFORE DELETE ON games_moderationaction
    WHEN NOT sultan_log_erasure_allowed()
    BEGIN SELECT RAISE(ABORT, 'games_moderationaction is append-only: DELETE refused'); END""",
]

SQLITE_REMOVE = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in (
        "games_move_no_update",
        "games_move_no_delete",
        "games_moderationaction_no_update",
        "games_moderationaction_no_delete",
    )
]


def restore_sqlite_triggers(schema_editor: BaseDatabaseSchemaEditor, table: str) -> None:
    """Put back one table's SQLite triggers, which a later migration's rebuild dropped."""
    if schema_editor.connection.vendor != "sqlite":
        return  # PostgreSQL alters tables in place: its triggers stay
    names = (f"{table}_no_update", f"{table}_no_delete")
    for name in names:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}", params=None)
    for statement in SQLITE_INSTALL:
        if any(f"TRIGGER {name} " in statement for name in names):
            schema_editor.execute(statement, params=None)


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_INSTALL, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_INSTALL:
            schema_editor.execute(statement, params=None)
    else:
        raise NotImplementedError(f"no append-only triggers for {vendor}")


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    statements = [POSTGRES_REMOVE] if vendor == "postgresql" else SQLITE_REMOVE
    for statement in statements:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
