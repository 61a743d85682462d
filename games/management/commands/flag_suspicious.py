"""Flag finished games whose move timing no person produces (games/moderation/anticheat.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.moderation.flags import ANTICHEAT_USERNAME, flag_suspicious


class Command(BaseCommand):
    help = (
        "Record a `flag` moderation act, with the evidence, for each suspicious finished game"
        " not flagged before (nor flagged and cleared). Safe to run again: it flags nothing twice."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--moderator",
            default=None,
            help=f"the account the flags are recorded under (default: {ANTICHEAT_USERNAME!r},"
            " created inactive)",
        )
        parser.add_argument("--dry-run", action="store_true", help="list, record nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        moderator = None
        if options["moderator"]:
            user = get_user_model().objects.filter(username=options["moderator"]).first()
            if user is None:
                raise CommandError(f"no account named {options['moderator']!r}")
            moderator = user
        report = flag_suspicious(moderator=moderator, dry_run=options["dry_run"])
        verb = "would flag" if options["dry_run"] else "flagged"
        for game_id in report.flagged:
            self.stdout.write(f"{verb} game #{game_id}")
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.judged} finished games judged, {len(report.flagged)} {verb},"
                f" {report.already} already flagged or cleared by a moderator"
            )
        )
