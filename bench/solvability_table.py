"""The solvability table of docs/solvability.md, from the per-deal CSVs.

    .venv/bin/python bench/solvability_table.py [--table 1-10000-1m]

Reads docs/solvability/<variant>-<table>.csv (rows written by
`manage.py solve --csv`) and prints one Markdown row per variant: deals won,
proved lost and unknown; the bounds on the share of winnable deals
[won, won + unknown] among these deals; those bounds widened by a 95% Wilson
interval for Sultan deals at large; how many the greedy player won; and the
CPU seconds per deal at the median, 90th and 99th percentiles.
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

from games.engine import VARIANTS

FIGURES = Path(__file__).resolve().parents[1] / "docs" / "solvability"
Z95 = 1.959964


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial share."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = share + Z95**2 / (2 * trials)
    spread = Z95 * math.sqrt(share * (1 - share) / trials + Z95**2 / (4 * trials**2))
    return (centre - spread) / denominator, (centre + spread) / denominator


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def row(variant: str, rows: list[dict[str, str]]) -> str:
    total = len(rows)
    won = sum(r["status"] == "won" for r in rows)
    lost = sum(r["status"] == "lost" for r in rows)
    unknown = total - won - lost
    low, high = wilson(won, total)[0], wilson(won + unknown, total)[1]
    greedy = sum(r["greedy"] == "won" for r in rows)
    seconds = [float(r["seconds"]) for r in rows]
    times = " / ".join(f"{percentile(seconds, q):.3f}" for q in (0.5, 0.9, 0.99))
    return (
        f"| `{variant}` | {won:,} | {lost:,} | {unknown:,} | {100 * won / total:.1f}%–"
        f"{100 * (won + unknown) / total:.1f}% | {100 * low:.1f}%–{100 * high:.1f}% | "
        f"{greedy:,} | {times} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="1-10000-1m", help="the CSVs' suffix")
    args = parser.parse_args()
    print(
        "| variant | won | lost | unknown | share winnable, bounds | 95% interval "
        "| greedy won | CPU s per deal p50 / p90 / p99 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for variant in VARIANTS:
        path = FIGURES / f"{variant}-{args.table}.csv"
        if path.exists():
            with path.open() as file:
                print(row(variant, list(csv.DictReader(file))))


if __name__ == "__main__":
    main()
