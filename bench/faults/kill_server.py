"""Fault: a Daphne process killed with SIGKILL at random moments during a race, then started again.

Racers go through nginx; when their process dies they reconnect (nginx sends
them to the live one), resync from the snapshot and resend the unanswered move
with the same id. Afterwards the database is compared with every racer's
ledger: acknowledged but not stored, stored twice, and stored but never sent
must all be 0. Prints the moves recovered (stored, acknowledged only on the
retry) and the time from a drop to the resync.

    .venv/bin/python bench/faults/kill_server.py --races 4 --kills 4
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.faults.harness import (  # noqa: E402
    bounded,
    crews,
    fault_arguments,
    production,
    verdict,
)
from bench.ledger import audit, stored_moves  # noqa: E402
from bench.pace import HumanPace  # noqa: E402
from bench.racers import latency_line, pct  # noqa: E402
from deploy.serve_prod import Topology  # noqa: E402

RESYNC_BOUND_MS = 10_000


async def killer(
    topo: Topology, kills: int, rng: random.Random, every_s: tuple[float, float], log: list[str]
) -> None:
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(*every_s))
        port = rng.choice(topo.ports)
        topo.kill_daphne(port, signal.SIGKILL)
        log.append(f"{time.strftime('%H:%M:%S')} killed the process on port {port}")
        await asyncio.sleep(rng.uniform(0.3, 1.5))
        await asyncio.to_thread(topo.restart_daphne, port)
        log.append(f"{time.strftime('%H:%M:%S')} started it again")


async def scenario(topo: Topology, args: argparse.Namespace) -> tuple[list[str], dict[str, float]]:
    rng = random.Random(args.seed)
    teams, tally = await crews(
        topo.url, topo.ws_url, races=args.races, seats=args.seats, moves=args.moves
    )
    racers = [r for team in teams for r in team]
    stop = asyncio.Event()
    events: list[str] = []
    started = time.perf_counter()
    play = asyncio.gather(*(r.play(HumanPace(random.Random(rng.random())), stop) for r in racers))
    await killer(topo, args.kills, rng, (args.min_gap, args.max_gap), events)
    # Play on after the last restart: the race must go on.
    acked_at_last_restart = tally.acked
    await asyncio.sleep(args.after_s)
    stop.set()  # each racer finishes the move in flight, then stops
    await play
    elapsed = time.perf_counter() - started
    for r in racers:
        await r.close()
    rows = await asyncio.to_thread(stored_moves, topo.env, [r.game for r in racers if r.game])
    report = audit(racers, rows)
    failures = list(tally.failures)
    if not report.ok:
        failures.append("the database and the acknowledgements disagree")
    if tally.acked <= acked_at_last_restart:
        failures.append("no move was acknowledged after the last restart")
    if tally.drops == 0:
        failures.append("no socket was dropped: the kills did not hit any racer")
    if len(tally.resync_ms) < tally.drops:
        failures.append(f"{tally.drops - len(tally.resync_ms)} dropped sockets never resynced")
    if tally.resync_ms and pct(tally.resync_ms, 0.99) > RESYNC_BOUND_MS:
        failures.append(f"resync p99 above {RESYNC_BOUND_MS} ms")
    print(
        f"kill -9: {len(racers)} racers in races of {args.seats} through nginx over"
        f" {len(topo.ports)} Daphne processes, {args.kills} kills, {elapsed:.1f} s"
    )
    for line in events:
        print(f"  {line}")
    print(f"  moves sent / acknowledged {tally.sent:>6} / {tally.acked}")
    print(f"  sockets dropped           {tally.drops:>6}")
    print(latency_line("time to resync", tally.resync_ms))
    print(latency_line("ack latency", tally.ack_ms))
    print("\n".join(report.lines()))
    figures = {"recovered": report.recovered, "resync_p99_ms": pct(tally.resync_ms, 0.99)}
    return failures, figures


def main() -> int:
    parser = fault_arguments(__doc__, races=4, seed=7, timeout_s=240.0)
    parser.add_argument("--moves", type=int, default=400, help="moves per racer at most")
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--min-gap", type=float, default=1.5, help="seconds between kills, least")
    parser.add_argument("--max-gap", type=float, default=4.0, help="seconds between kills, most")
    parser.add_argument("--after-s", type=float, default=3.0, help="play on after the last kill")
    args = parser.parse_args()
    with production("fault_kill") as prod:
        failures, _ = asyncio.run(bounded(scenario(prod.topo, args), args.timeout_s))
    return verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
