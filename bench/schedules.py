"""The rounds' schedule past a million positions: deals won at a node budget, by schedule.

    .venv/bin/python bench/schedules.py [--variant sultan] [--deals 1-100]
                                        [--max-nodes 6000000] [--schedules before,today,...]

A node budget, not a time: the answers do not depend on the machine or its
load, so schedules can be compared on a shared machine, one run beside
another. `before` is the early rounds kept on past `rounds.LATE_FROM` (the
schedule before the late rounds); `today` is `rounds.late_rounds`; the others
are the alternatives docs/solvability.md ("Wide caps past a million")
reports. Prints each schedule's deals won, lost and unknown, and its wins
against `before`'s.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import new_game  # noqa: E402
from games.engine.solver import rounds  # noqa: E402
from games.engine.solver.batch import parse_deals  # noqa: E402
from games.engine.solver.solve import solve  # noqa: E402

Late = Callable[[bool], Iterator[rounds.Round]]
TODAY: Late = rounds.late_rounds


def _capped(caps: dict[int, int], shaken_budget: int) -> Late:
    """`late_rounds` with other caps, and shaken rounds of another length."""
    return partial(rounds.late_rounds, caps=caps, shaken_budget=shaken_budget)


def _unshaken(shaken: bool) -> Iterator[rounds.Round]:
    return TODAY(False)


SCHEDULES: dict[str, Late | None] = {
    "before": None,
    "today": TODAY,
    "unshaken": _unshaken,  # pysolfc without the shake
    "caps-5000-300": _capped({1: 5_000, 0: 300}, 50_000),
    "caps-50000-3000": _capped({1: 50_000, 0: 3_000}, 50_000),
    "short-shakes": _capped(rounds.WIDE, 25_000),
    "long-shakes": _capped(rounds.WIDE, 100_000),
}


def _won(variant: str, seeds: list[int], max_nodes: int) -> tuple[int, int, int]:
    statuses = [solve(new_game(seed, variant), max_nodes=max_nodes).status for seed in seeds]
    return statuses.count("won"), statuses.count("lost"), statuses.count("unknown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="sultan")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--max-nodes", type=int, default=6_000_000)
    parser.add_argument("--schedules", default="before,today")
    args = parser.parse_args()
    seeds = parse_deals(args.deals)
    names = args.schedules.split(",")
    for name in names:
        if name not in SCHEDULES:
            parser.error(f"--schedules: one of {', '.join(SCHEDULES)}, not {name!r}")
    print(f"{args.variant}, deals {args.deals}, max_nodes={args.max_nodes:,}")
    print(f"{'schedule':<16} {'won':>5} {'lost':>5} {'unk':>5} {'cpu s':>7} {'won / before':>13}")
    late_from, late_rounds = rounds.LATE_FROM, rounds.late_rounds
    base: int | None = None
    for name in names:
        schedule = SCHEDULES[name]
        # run_rounds reads both from its module when it runs.
        setattr(rounds, "LATE_FROM", 1 << 62 if schedule is None else late_from)  # noqa: B010
        setattr(rounds, "late_rounds", late_rounds if schedule is None else schedule)  # noqa: B010
        start = time.process_time()
        won, lost, unknown = _won(args.variant, seeds, args.max_nodes)
        spent = time.process_time() - start
        if name == "before":
            base = won
        ratio = f"x{won / base:.2f}" if base else "-"
        print(f"{name:<16} {won:>5} {lost:>5} {unknown:>5} {spent:>7.1f} {ratio:>13}", flush=True)
    setattr(rounds, "LATE_FROM", late_from)  # noqa: B010
    setattr(rounds, "late_rounds", late_rounds)  # noqa: B010


if __name__ == "__main__":
    main()
