"""Solver benchmark: how fast deals get decided, per variant, over a fixed range of deals.

    .venv/bin/python bench/solver.py [--deals 1-200] [--max-nodes N] [--max-seconds S]

Deals run one after another in this process, so each deal's time is its own.
A deal counts as decided when the solver answers won or lost, not unknown.
Prints, per variant: decided deals per second of solving, and the time per
deal at the median, 90th and 99th percentiles.
"""

from __future__ import annotations

import argparse
import platform
import time

from games.engine import VARIANTS
from games.engine.solver.batch import parse_deals, percentile, solve_deals

DEFAULT_DEALS = "1-200"
DEFAULT_MAX_NODES = 100_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=DEFAULT_DEALS)
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    seeds = parse_deals(args.deals)
    print(
        f"python {platform.python_version()} on {platform.machine()}, deals {args.deals}, "
        f"max_nodes={args.max_nodes}, max_seconds={args.max_seconds}"
    )
    print(
        f"{'variant':<10} {'won':>5} {'lost':>5} {'unk':>5} {'decided/s':>10} "
        f"{'median s':>9} {'p90 s':>8} {'p99 s':>8} {'decided<=1s':>12}"
    )
    for variant in args.variants.split(","):
        started = time.perf_counter()
        rows = list(solve_deals(variant, seeds, args.max_nodes, args.max_seconds))
        wall = time.perf_counter() - started
        times = sorted(r.seconds for r in rows)
        decided = [r for r in rows if r.status != "unknown"]
        quick = sum(r.status != "unknown" and r.seconds <= 1.0 for r in rows)
        count = {s: sum(r.status == s for r in rows) for s in ("won", "lost", "unknown")}
        print(
            f"{variant:<10} {count['won']:>5} {count['lost']:>5} {count['unknown']:>5} "
            f"{len(decided) / wall:>10.2f} {percentile(times, 0.5):>9.3f} "
            f"{percentile(times, 0.9):>8.3f} {percentile(times, 0.99):>8.3f} "
            f"{100 * quick / len(rows):>11.1f}%"
        )


if __name__ == "__main__":
    main()
