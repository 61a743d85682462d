from django.apps import AppConfig
from django.db.backends.signals import connection_created


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.append_only import register_sqlite_functions

        connection_created.connect(register_sqlite_functions, dispatch_uid="games_sqlite_functions")
