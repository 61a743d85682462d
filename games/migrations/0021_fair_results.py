# What a result is worth against whom (#36, games/fairness/worth.py): whether a
# racer was placed, and established, kept with each rating change and each
# tournament result; the leaderboard lists established ratings only. Ratings
# computed before this are the old rule's: run `manage.py rebuild_ratings
# --kept-rankings` after migrating (until then nobody is established, and the
# leaderboard is empty).

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

RESULTS = "games_tournamentresult"


def triggers_again(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """SQLite adds the column by making the table anew, which drops 0019's triggers
    that keep results append-only: make them again (PostgreSQL keeps its own)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    schema_editor.execute(
        f"CREATE TRIGGER IF NOT EXISTS {RESULTS}_no_update BEFORE UPDATE ON {RESULTS} "
        f"BEGIN SELECT RAISE(ABORT, '{RESULTS} is append-only: UPDATE refused'); END",
        params=None,
    )
    schema_editor.execute(
        f"CREATE TRIGGER IF NOT EXISTS {RESULTS}_no_delete BEFORE DELETE ON {RESULTS} "
        "WHEN NOT sultan_log_erasure_allowed() "
        f"BEGIN SELECT RAISE(ABORT, '{RESULTS} is append-only: DELETE refused'); END",
        params=None,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_play"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="rating",
            name="rating_board",
        ),
        migrations.AddField(
            model_name="rating",
            name="established",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="established",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="placed",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="tournamentresult",
            name="placed",
            field=models.BooleanField(default=True),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                condition=models.Q(("established", True), ("races__gte", 5)),
                fields=["variant", "-rating", "player", "races"],
                name="rating_board",
            ),
        ),
        migrations.RunPython(triggers_again, migrations.RunPython.noop),
    ]
