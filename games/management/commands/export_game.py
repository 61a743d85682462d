"""Print a game's record (docs/record-format.md) for the operator, whatever its state."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.store.selectors import game_record_text


class Command(BaseCommand):
    help = "Print the record of a game (an operator's export: no visibility rule applies)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.select_related("player", "race").filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"no such game: {options['game_id']}")
        self.stdout.write(game_record_text(game=game), ending="")
