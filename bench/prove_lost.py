"""Prove `pysolfc` deals lost from the deal, and check each proof another way.

    .venv/bin/python bench/prove_lost.py --variant pysolfc --deals 387 [--check]

THE PROOF (games/engine/solver/prove.py): the reference search enumerates
every way through the passes before the last, and each distinct start of a
last pass is refuted by the suit-group relaxation or, where that says
nothing, by an exact search of that one pass on the compiled core.

THE CHECK (--check), which shares none of the proof's relaxation: the
compiled core counts the last-pass starts itself (`count_last_redeals`, a
second implementation of the enumeration, which must agree), and every
start is searched exactly on the core, each with a table of its own
(`prove_lost(relax=False)`), which must refute them all too. (One exact
search of the whole deal would do the same, but its table fills with the
positions of passes already refuted and then drops those of the pass at
hand.) What both trust is the safe-move rule (games/engine/safe.py, whose
docstring proves it), and the core's agreement with the reference search is
the differential test's (tests/solver/test_core.py).

A deal takes minutes: a last pass the relaxation cannot refute costs tens of
millions of positions. Seconds are CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import time

from games.engine import new_game
from games.engine.solver.batch import parse_deals
from games.engine.solver.compiled import count_last_redeals
from games.engine.solver.model import Position
from games.engine.solver.prove import prove_lost


def _prove(variant: str, seed: int, args: argparse.Namespace) -> bool:
    started = time.process_time()
    proof = prove_lost(
        new_game(seed, variant),
        max_nodes=args.max_nodes,
        last_pass_nodes=args.last_pass_nodes,
        memory=args.memory_mb << 20,
    )
    print(
        f"{variant:<10} {seed:>5} proof  {'LOST' if proof.lost else 'not proved':<10} "
        f"starts {proof.last_passes:>6,}  relaxed {proof.refuted - proof.searched:>6,}  "
        f"searched {proof.searched:>4,}  {time.process_time() - started:>7.1f} s",
        flush=True,
    )
    if proof.lost and args.check:
        _check(variant, seed, proof.last_passes, args)
    return proof.lost


def _check(variant: str, seed: int, starts: int, args: argparse.Namespace) -> None:
    started = time.process_time()
    start = Position(new_game(seed, variant))
    count = count_last_redeals(start, None, args.memory_mb << 20)
    exact = prove_lost(
        new_game(seed, variant),
        max_nodes=args.max_nodes,
        last_pass_nodes=args.last_pass_nodes,
        memory=args.memory_mb << 20,
        relax=False,
    )
    agrees = count.complete and count.starts == starts == exact.searched and exact.lost
    print(
        f"{variant:<10} {seed:>5} check  {'AGREES' if agrees else 'DISAGREES':<10} "
        f"starts {count.starts:>6,}  searched {exact.searched:>4,}  "
        f"{time.process_time() - started:>7.1f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pysolfc", choices=["pysolfc", "pysolfc-8"])
    parser.add_argument("--deals", default="387")
    parser.add_argument("--max-nodes", type=int, default=10_000_000, help="for the enumeration")
    parser.add_argument("--last-pass-nodes", type=int, default=200_000_000)
    parser.add_argument("--memory-mb", type=int, default=8192)
    parser.add_argument("--check", action="store_true", help="check each proof independently")
    args = parser.parse_args()
    print(
        f"{args.variant} deals {args.deals}, last_pass_nodes={args.last_pass_nodes:,}, "
        f"memory {args.memory_mb} MB, load {os.getloadavg()[0]:.1f}"
    )
    proved = sum(_prove(args.variant, seed, args) for seed in parse_deals(args.deals))
    print(f"proved lost: {proved}")


if __name__ == "__main__":
    main()
