"""How large is a proof of loss from the deal? Count the positions at the last redeal.

    .venv/bin/python bench/last_redeal.py [--deals 1-3] [--max-nodes 10000000]

For each deal, the compiled core searches every way through the passes before
the last (no caps, no shortcuts but the proved-safe moves) and counts each
distinct position at the last redeal once, without searching it
(`compiled.count_last_redeals`). A proof that the deal is lost must refute
every one of them. Unless the count completes within the node budget, the
figure is a lower bound.
"""

from __future__ import annotations

import argparse
import os
import time

from games.engine import VARIANTS, new_game
from games.engine.solver.batch import parse_deals
from games.engine.solver.compiled import count_last_redeals
from games.engine.solver.model import Position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-3")
    parser.add_argument("--max-nodes", type=int, default=10_000_000)
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(
        f"deals {args.deals}, max_nodes={args.max_nodes}, memory {args.memory_mb} MB, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'variant':<10} {'deal':>5} {'complete':>8} {'positions':>11} {'starts':>11} {'s':>6}")
    for variant in args.variants.split(","):
        for seed in parse_deals(args.deals):
            started = time.perf_counter()
            count = count_last_redeals(
                Position(new_game(seed, variant)), args.max_nodes, args.memory_mb << 20
            )
            print(
                f"{variant:<10} {seed:>5} {'yes' if count.complete else 'no':>8} "
                f"{count.positions:>11,} {count.starts:>11,} "
                f"{time.perf_counter() - started:>6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
