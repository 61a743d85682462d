"""Recompute every rating from the race results (docs/ratings.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = (
        "Rate every rated race again, in the order they finished; --rerank first ranks "
        "every rated race afresh from its racers' logs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rerank",
            action="store_true",
            help="replay every rated race's logs for its ranking (default: only where missing)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        report = ratings_rebuild(rerank=options["rerank"])
        seconds = time.perf_counter() - started
        per_variant = ", ".join(f"{variant} {count}" for variant, count in report.rated.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.reranked} races ranked from their logs; races rated: {per_variant} "
                f"({seconds:.1f} s)"
            )
        )
