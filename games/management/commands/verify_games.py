"""Replay every game's log (or the named ones) and compare with the stored projection."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.store.selectors import game_projection_mismatches


class Command(BaseCommand):
    help = "Replay game logs through the engine; print mismatches, exit non-zero if any."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="games to check (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] = options["game_ids"]
        games = Game.objects.select_related("race").order_by("pk")
        if ids:
            games = games.filter(pk__in=ids)
            missing = sorted(set(ids) - set(games.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no such game: {', '.join(map(str, missing))}")
        checked = bad = 0
        for game in games.iterator(chunk_size=500):
            checked += 1
            mismatches = game_projection_mismatches(game=game)
            if mismatches:
                bad += 1
                for mismatch in mismatches:
                    self.stdout.write(str(mismatch))
        summary = f"{checked} games replayed, {bad} with mismatches"
        if bad:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
