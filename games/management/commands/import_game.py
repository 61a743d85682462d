"""Verify a game record by replaying it; with --save, store it as a new practice game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.accounts.services import player_create_guest
from games.store.records import RecordError, verify_record
from games.store.services import game_import_record


class Command(BaseCommand):
    help = "Verify a game record (docs/record-format.md) by replay; --save stores it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--save",
            action="store_true",
            help="store the game, owned by a new guest named after the Player tag",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{path}: cannot read it: {error}") from None
        try:
            record = verify_record(text)
        except RecordError as error:
            raise CommandError(f"{path}: refused: {error}") from None
        self.stdout.write(
            f"{path}: the record replays: {record.variant}, deal {record.seed}, "
            f"{len(record.moves)} moves, result {record.result}, "
            f"{record.position.state.cards_played} cards played"
        )
        if options["save"]:
            player = player_create_guest(nickname=record.tags.get("Player") or "imported")
            game = game_import_record(record=record, player=player, started_at=timezone.now())
            self.stdout.write(self.style.SUCCESS(f"stored as game #{game.pk}"))
