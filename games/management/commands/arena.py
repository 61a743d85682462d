"""`manage.py arena`: the tournaments' pairing loop outside a web process
(games/tournaments/loop.py; the web processes run the same loop)."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.tournaments.loop import SCHEDULE_EVERY_S, arena_step


class Command(BaseCommand):
    help = "Pair the tournaments' waiting players, tick after tick (Ctrl-C stops)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="one tick, then stop")

    def handle(self, *args: Any, **options: Any) -> None:
        scheduled = 0.0
        while True:
            now = time.monotonic()
            due = now - scheduled >= SCHEDULE_EVERY_S
            arena_step(schedule=due)
            if due:
                scheduled = now
            if options["once"]:
                return
            time.sleep(settings.TOURNAMENT_TICK_MS / 1000)
