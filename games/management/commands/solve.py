"""Solve a range of deals with full knowledge; print a table and a summary, optionally a CSV."""

from __future__ import annotations

import csv
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import VARIANTS
from games.engine.solver.batch import DealResult, parse_deals, solve_deals
from games.engine.solver.solve import DEFAULT_MAX_NODES

CSV_FIELDS = ("deal", "variant", "status", "nodes", "seconds", "moves", "greedy", "greedy_played")


class Command(BaseCommand):
    help = (
        "Decide deals with the full-knowledge solver: won (with a line), lost (proved) "
        "or unknown (budget spent). Example: solve --variant sultan --deals 1-1000"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", choices=VARIANTS, default="sultan")
        parser.add_argument("--deals", required=True, help="seeds: 1-1000, 7 or 1-5,9,20-22")
        parser.add_argument(
            "--max-nodes",
            type=int,
            default=DEFAULT_MAX_NODES,
            help=f"positions searched per deal before giving up (default {DEFAULT_MAX_NODES})",
        )
        parser.add_argument(
            "--max-seconds", type=float, default=None, help="time per deal (default: none)"
        )
        parser.add_argument("--csv", type=Path, default=None, help="also write the rows here")
        parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
        parser.add_argument(
            "--clock",
            choices=("wall", "cpu"),
            default="wall",
            help="--max-seconds and the seconds reported: wall time (default) or CPU time",
        )
        parser.add_argument(
            "--engine",
            choices=("c", "python"),
            default=None,
            help="the compiled core or the Python reference (default: the core when built)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            seeds = parse_deals(options["deals"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        if options["max_nodes"] is not None and options["max_nodes"] < 1:
            raise CommandError("--max-nodes must be at least 1")
        started = time.perf_counter()
        rows: list[DealResult] = []
        self.stdout.write(f"{'deal':>8}  {'status':<7}  {'nodes':>9}  {'seconds':>8}  moves")
        for row in solve_deals(
            options["variant"],
            seeds,
            options["max_nodes"],
            options["max_seconds"],
            workers=options["workers"],
            engine=options["engine"],
            cpu_clock=options["clock"] == "cpu",
        ):
            if options["clock"] == "cpu":  # the seconds reported are CPU seconds too
                row = replace(row, seconds=row.cpu_seconds)
            rows.append(row)
            self.stdout.write(
                f"{row.seed:>8}  {row.status:<7}  {row.nodes:>9}  {row.seconds:>8.3f}  {row.moves}"
            )
        if options["csv"] is not None:
            _write_csv(options["csv"], rows)
        self.stdout.write(_summary(rows, time.perf_counter() - started))


def _write_csv(path: Path, rows: list[DealResult]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_FIELDS)
        for r in rows:
            writer.writerow(
                (
                    r.seed,
                    r.variant,
                    r.status,
                    r.nodes,
                    f"{r.seconds:.4f}",
                    r.moves,
                    r.greedy,
                    r.greedy_played,
                )
            )


def _summary(rows: list[DealResult], wall: float) -> str:
    total = len(rows) or 1
    counts = {
        status: sum(r.status == status for r in rows) for status in ("won", "lost", "unknown")
    }
    shares = ", ".join(f"{s} {n} ({100 * n / total:.1f}%)" for s, n in counts.items())
    greedy = sum(r.greedy == "won" for r in rows)
    return (
        f"{len(rows)} deals: {shares}; greedy player won {greedy} ({100 * greedy / total:.1f}%); "
        f"{wall:.1f} s"
    )
