"""Recompute every rating from the logs (docs/ratings.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = (
        "Rank every rated race afresh from its racers' logs, then rate every rated race "
        "again in the order they finished. --kept-rankings skips the ranking (fast: the "
        "rankings each race kept at its end are the same)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--kept-rankings",
            action="store_true",
            help="use the rankings kept at each race's end (ranking from the logs only "
            "the races that have none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        report = ratings_rebuild(rerank=not options["kept_rankings"])
        seconds = time.perf_counter() - started
        per_variant = ", ".join(f"{variant} {count}" for variant, count in report.rated.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.reranked} races ranked from their logs; races rated: {per_variant} "
                f"({seconds:.1f} s)"
            )
        )
