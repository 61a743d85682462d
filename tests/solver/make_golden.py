"""Write data/late_positions.json: late-game positions and their verdicts by brute force.

    PYTHONPATH=. .venv/bin/python tests/solver/make_golden.py SEED VARIANT[,VARIANT...] OUT.json

The verdicts come from `brute_force` alone; the solver plays no part in them.
Positions too big for the brute force are skipped. For each variant it stops
at 12 winnable and 12 lost positions, or after 3,000 tries (lost `pysolfc-8`
positions are rare: an empty slot nearly always saves the game).
The checked-in file merged the outputs of seeds 1 (sultan, sultan-8) and
2 (pysolfc, pysolfc-8).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from tests.solver.brute import brute_force
from tests.solver.positions import late_position, playable, to_json

PER_VERDICT = 12
TRIES = 3_000


def main() -> None:
    rng = random.Random(int(sys.argv[1]))
    found = []
    for variant in sys.argv[2].split(","):
        got = {True: 0, False: 0}
        for _ in range(TRIES):
            if min(got.values()) >= PER_VERDICT:
                break
            seed = rng.randrange(100_000)
            cards_out = rng.randint(10, 22)
            full = variant.startswith("pysolfc") and rng.random() < 0.8
            state = late_position(seed, variant, cards_out, rng, full_reserve=full)
            if not playable(state):
                continue
            try:
                verdict = brute_force(state, limit=150_000)
            except RuntimeError:
                continue
            if got[verdict] >= PER_VERDICT:
                continue
            got[verdict] += 1
            found.append({**to_json(state), "cards_out": cards_out, "winnable": verdict})
        print(variant, got)
    Path(sys.argv[3]).write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
