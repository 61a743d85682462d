from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = gettext_lazy("Sultan")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.accounts.services import player_on_login
        from games.store.append_only import register_sqlite_functions

        connection_created.connect(register_sqlite_functions, dispatch_uid="games_sqlite_functions")
        user_logged_in.connect(player_on_login, dispatch_uid="games_player_for_login")
