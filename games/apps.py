from importlib import import_module
from typing import Final

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy

# The rooms that keep their tables beside their code (games/<room>/models.py).
# Django registers a model when its module is imported; the app imports these with
# games.models, so games.models imports no room and no room's tables import it back.
ROOM_MODELS: Final = (
    "api",
    "challenges",
    "daily",
    "fairness",
    "friends",
    "races",
    "ratings",
    "tournaments",
)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = gettext_lazy("Sultan")
    default_auto_field = "django.db.models.BigAutoField"

    def import_models(self) -> None:
        """games.models, then each room's tables: all registered in Django's
        models phase, before any app's ready() and before migrations read them."""
        super().import_models()
        for room in ROOM_MODELS:
            import_module(f"{self.name}.{room}.models")

    def ready(self) -> None:
        from django.contrib.auth.models import User
        from django.db.models.signals import pre_delete

        import sultan_site.checks  # noqa: F401 (registers the production checks)
        from games.accounts.deletion import user_deleted_forget
        from games.accounts.services import player_on_login
        from games.accounts.signals import player_games_changed
        from games.races.seating import seat_check_register
        from games.races.signals import race_finished
        from games.ratings.receivers import on_player_games_changed, on_race_finished
        from games.store.append_only import register_sqlite_functions
        from games.tournaments.receivers import on_race_finished as tournament_race_finished
        from games.tournaments.services import tournament_seat_check

        connection_created.connect(register_sqlite_functions, dispatch_uid="games_sqlite_functions")
        user_logged_in.connect(player_on_login, dispatch_uid="games_player_for_login")
        race_finished.connect(on_race_finished, dispatch_uid="games_ratings_race_finished")
        race_finished.connect(tournament_race_finished, dispatch_uid="games_tournament_race")
        seat_check_register("tournaments", tournament_seat_check)
        player_games_changed.connect(
            on_player_games_changed, dispatch_uid="games_ratings_player_games_changed"
        )
        # However a user is deleted, their name goes with them (docs/store.md).
        pre_delete.connect(user_deleted_forget, sender=User, dispatch_uid="games_user_forget")
