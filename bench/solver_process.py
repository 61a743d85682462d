"""What a solver process costs to start and to keep (games/quotas/process.py).

Two arms, run alternately, each a fresh pool of one solver process started as a web
process starts it (spawn, the same initializer) and given one small solve: `django`
(the process as it was: Django set up in it, its work functions in modules that import
the models) and `engine` (now: the engine only). For each, the solver process's own CPU
seconds up to the end of that solve (getrusage in the process), its resident memory then
(VmRSS), and the wall time from asking for the pool to the answer.

    .venv/bin/python bench/solver_process.py --repeat 10
"""

from __future__ import annotations

# Only the standard library up here: each solver process imports this file again (spawn
# runs the main module's top as __mp_main__), and what it imports would be counted.
import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def with_django(niceness: int) -> None:
    """The initializer as it was: the process's own start, then Django set up."""
    from games.quotas.process import solver_process_start

    solver_process_start(niceness)
    import django

    django.setup()


def figures() -> tuple[float, int]:
    """In the solver process: a hint-sized solve, then (own CPU s, resident kB)."""
    from games.engine import new_game
    from games.engine.solver import solve

    solve(new_game(1, "sultan-8"), max_nodes=20_000, max_seconds=1.0)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    rss = next(
        int(line.split()[1])
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith("VmRSS:")
    )
    return usage.ru_utime + usage.ru_stime, rss


def one(arm: str) -> tuple[float, int, float]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from games.quotas.process import solver_process_start

    started = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=with_django if arm == "django" else solver_process_start,
        initargs=(0,),
    ) as pool:
        cpu, rss = pool.submit(figures).result(timeout=120)
        wall = time.perf_counter() - started
    return cpu, rss, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
    arms = ("django", "engine")
    seen: dict[str, list[tuple[float, int, float]]] = {arm: [] for arm in arms}
    for _ in range(args.repeat):
        for arm in arms:
            seen[arm].append(one(arm))
    load = os.getloadavg()[0]
    print(f"{args.repeat} solver processes an arm, load {load:.1f}")
    medians = {}
    for arm in arms:
        cpu = statistics.median(r[0] for r in seen[arm])
        rss = statistics.median(r[1] for r in seen[arm]) / 1024
        wall = statistics.median(r[2] for r in seen[arm])
        medians[arm] = (cpu, rss, wall)
        print(f"{arm:7s} first solve: CPU s {cpu:.2f}  resident MB {rss:.0f}  wall {wall:.2f} s")
    base, now = medians["django"], medians["engine"]
    print(
        f"engine/django: CPU x{now[0] / base[0]:.2f}  memory x{now[1] / base[1]:.2f}"
        f"  wall x{now[2] / base[2]:.2f}"
    )


if __name__ == "__main__":
    main()
