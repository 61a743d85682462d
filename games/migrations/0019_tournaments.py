# Tournaments (#25): the tables of games/tournaments/models.py, and triggers that
# keep results and voids append-only in SQL, as 0002 keeps the move log.

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

import games.tournaments.models

APPEND_ONLY = ("games_tournamentresult", "games_tournamentvoid")


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    for table in APPEND_ONLY:
        if vendor == "postgresql":
            # games_refuse_change() is 0002's.
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION games_refuse_change()",
                params=None,
            )
        elif vendor == "sqlite":
            schema_editor.execute(
                f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END",
                params=None,
            )
            schema_editor.execute(
                f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                "WHEN NOT sultan_log_erasure_allowed() "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END",
                params=None,
            )


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    for table in APPEND_ONLY:
        if vendor == "postgresql":
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}", params=None
            )
        else:
            for suffix in ("no_update", "no_delete"):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_{suffix}", params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_friends"),
    ]

    operations = [
        migrations.CreateModel(
            name="Tournament",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "code",
                    models.CharField(
                        default=games.tournaments.models.tournament_code_new,
                        max_length=10,
                        unique=True,
                        verbose_name="code",
                    ),
                ),
                ("name", models.CharField(max_length=60, verbose_name="name")),
                ("variant", models.CharField(max_length=16, verbose_name="variant")),
                ("starts_at", models.DateTimeField(verbose_name="starts at")),
                ("ends_at", models.DateTimeField(verbose_name="ends at")),
                (
                    "seat_limit",
                    models.PositiveSmallIntegerField(default=4, verbose_name="seats per race"),
                ),
                (
                    "race_time_limit_s",
                    models.PositiveIntegerField(verbose_name="race time limit (s)"),
                ),
                (
                    "automatic_moves",
                    models.BooleanField(default=False, verbose_name="automatic moves"),
                ),
                ("public", models.BooleanField(default=True, verbose_name="public")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished at"),
                ),
                ("version", models.BigIntegerField(default=0, verbose_name="version")),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_created",
                        to="games.player",
                        verbose_name="created by",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="TournamentEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("joined_at", models.DateTimeField(auto_now_add=True, verbose_name="joined at")),
                ("paused", models.BooleanField(default=False, verbose_name="paused")),
                ("waiting_since", models.DateTimeField(verbose_name="waiting since")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_entries",
                        to="games.player",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="games.tournament",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="TournamentRace",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                (
                    "scored_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="scored at"),
                ),
                (
                    "race",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_race",
                        to="games.race",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="races",
                        to="games.tournament",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="TournamentResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ranked", models.BooleanField(default=True)),
                ("place", models.PositiveSmallIntegerField()),
                ("racers", models.PositiveSmallIntegerField()),
                ("won", models.BooleanField(default=False)),
                ("cards_played", models.PositiveSmallIntegerField()),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.player",
                    ),
                ),
                (
                    "tournament_race",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="results",
                        to="games.tournamentrace",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="TournamentVoid",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("moderator_name", models.CharField(max_length=150, verbose_name="moderator name")),
                ("reason", models.TextField(verbose_name="reason")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                (
                    "tournament_race",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="void",
                        to="games.tournamentrace",
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(
                fields=["finished_at", "starts_at"], name="tournament_open_by_start"
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("variant__in", ["sultan", "sultan-8", "pysolfc", "pysolfc-8"])),
                name="tournament_variant_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("ends_at__gt", models.F("starts_at"))),
                name="tournament_ends_after_start",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat_limit__gte", 2), ("seat_limit__lte", 8)),
                name="tournament_seats_2_to_8",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True), name="tournament_name_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("race_time_limit_s__gte", 30)),
                name="tournament_race_time_positive",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(
                condition=models.Q(("created_by__isnull", True)),
                fields=("variant", "starts_at"),
                name="tournament_site_once_per_start",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("finished_at__isnull", True),
                    ("finished_at__gte", models.F("ends_at")),
                    _connector="OR",
                ),
                name="tournament_finished_after_end",
            ),
        ),
        migrations.AddIndex(
            model_name="tournamententry",
            index=models.Index(fields=["player", "paused"], name="tournament_entry_player"),
        ),
        migrations.AddConstraint(
            model_name="tournamententry",
            constraint=models.UniqueConstraint(
                fields=("tournament", "player"), name="tournament_entry_once_per_player"
            ),
        ),
        migrations.AddIndex(
            model_name="tournamentrace",
            index=models.Index(fields=["tournament", "scored_at"], name="tournament_race_unscored"),
        ),
        migrations.AddConstraint(
            model_name="tournamentresult",
            constraint=models.UniqueConstraint(
                fields=("tournament_race", "player"), name="tournament_result_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentresult",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("place__gte", 1), ("place__lte", models.F("racers"))),
                    ("ranked", False),
                    _connector="OR",
                ),
                name="tournament_result_place_in_race",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentvoid",
            constraint=models.CheckConstraint(
                condition=models.Q(("reason", ""), _negated=True), name="tournament_void_has_reason"
            ),
        ),
        migrations.RunPython(install, remove),
    ]
