"""Solver benchmark: the compiled core against the Python reference, per variant, in one run.

    .venv/bin/python bench/solver.py [--deals 1-100] [--max-seconds 1] [--max-nodes N]
                                     [--engines c,python] [--variants sultan,...]

Deals run one after another in this process, so each deal's time is its own;
a second is one of CPU time unless `--clock wall` (the machine is shared).
A deal counts as decided when the solver answers won or lost, not unknown.
Prints, per variant and engine: positions searched per second, deals won,
lost and unknown, the share decided within one second, and the time per
deal at the median, 90th and 99th percentiles; then the core's ratio to the
reference, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform

from games.engine import VARIANTS
from games.engine.solver.batch import DealResult, parse_deals, percentile, solve_deals
from games.engine.solver.compiled import Engine

DEFAULT_DEALS = "1-100"
DEFAULT_MAX_SECONDS = 1.0
DEFAULT_MAX_NODES = 1 << 40  # no node limit: the time decides


def _seconds(row: DealResult, cpu: bool) -> float:
    return row.cpu_seconds if cpu else row.seconds


def _line(variant: str, engine: str, rows: list[DealResult], nodes_per_s: float, cpu: bool) -> str:
    times = sorted(_seconds(r, cpu) for r in rows)
    count = {s: sum(r.status == s for r in rows) for s in ("won", "lost", "unknown")}
    quick = sum(r.status != "unknown" and _seconds(r, cpu) <= 1.0 for r in rows)
    return (
        f"{variant:<10} {engine:<7} {nodes_per_s:>11,.0f} {count['won']:>5} {count['lost']:>5} "
        f"{count['unknown']:>5} {100 * quick / len(rows):>11.1f}% "
        f"{percentile(times, 0.5):>9.3f} {percentile(times, 0.9):>8.3f} "
        f"{percentile(times, 0.99):>8.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=DEFAULT_DEALS)
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--engines", default="c,python")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="what a second is: this process's CPU time (default; fair on a shared machine) "
        "or the wall clock",
    )
    args = parser.parse_args()
    cpu = args.clock == "cpu"
    seeds = parse_deals(args.deals)
    engines: list[Engine] = []
    for name in args.engines.split(","):
        if name not in ("c", "python"):
            parser.error(f"--engines: 'c' or 'python', not {name!r}")
        engines.append("c" if name == "c" else "python")
    print(
        f"python {platform.python_version()} on {platform.machine()}, deals {args.deals}, "
        f"max_nodes={args.max_nodes}, max_seconds={args.max_seconds} ({args.clock}), "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'variant':<10} {'engine':<7} {'nodes/s':>11} {'won':>5} {'lost':>5} {'unk':>5} "
        f"{'decided<=1s':>12} {'median s':>9} {'p90 s':>8} {'p99 s':>8}"
    )
    for variant in args.variants.split(","):
        speed: dict[str, float] = {}
        quick: dict[str, int] = {}
        for engine in engines:
            rows = list(
                solve_deals(
                    variant, seeds, args.max_nodes, args.max_seconds, engine=engine, cpu_clock=cpu
                )
            )
            spent = sum(_seconds(r, cpu) for r in rows)
            speed[engine] = sum(r.nodes for r in rows) / max(spent, 1e-9)
            quick[engine] = sum(r.status != "unknown" and _seconds(r, cpu) <= 1.0 for r in rows)
            print(_line(variant, engine, rows, speed[engine], cpu), flush=True)
        if len(speed) == 2:
            print(
                f"{variant:<10} c/python: nodes/s x{speed['c'] / max(speed['python'], 1e-9):.1f}, "
                f"decided within 1 s {quick['c']} against {quick['python']} of {len(seeds)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
