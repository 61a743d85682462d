"""Player.nickname_chosen: a guest still under the site's default name is asked for one
before it is first shown to others. Guests already called "Guest" (or «Гость») are
taken as not having chosen."""

from typing import Any

from django.db import migrations, models

_DEFAULT_NAMES = ("Guest", "Гость")


def _mark_default_guests(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("games", "Player")
    Player.objects.filter(user__isnull=True, nickname__in=_DEFAULT_NAMES).update(
        nickname_chosen=False
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="nickname_chosen",
            field=models.BooleanField(default=True, verbose_name="nickname chosen"),
        ),
        migrations.RunPython(_mark_default_guests, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("user__isnull", True), ("nickname_chosen", True), _connector="OR"),
                name="player_account_name_chosen",
            ),
        ),
    ]
