"""Fault: Redis (the channel layer) restarted in the middle of a race.

Two Daphne processes share a Redis of their own (a separate redis-server on a
spare port: never the shared one); half the racers of each race are on each
process, so every racer learns of half its opponents only through Redis.
Redis stops for a few seconds, then starts again on the same port.

Promises checked: moves are still acknowledged and stored while Redis is
down; progress from the other process resumes within seconds of Redis coming
back; afterwards every client converges on the race's version in the database.

    .venv/bin/python bench/faults/redis_restart.py --races 2 --outage-s 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
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
from bench.ledger import audit, race_versions, stored_moves  # noqa: E402
from bench.pace import HumanPace  # noqa: E402
from bench.racers import Racer, latency_line  # noqa: E402
from deploy.serve_prod import Topology  # noqa: E402
from tests.services import PrivateRedis, private_redis  # noqa: E402

RESUME_BOUND_S = 10.0
CONVERGE_BOUND_S = 15.0


async def converge(racers: list[Racer], timeout_s: float) -> float:
    """Seconds until every racer's version is the server's (pings; a behind one resyncs)."""
    started = time.perf_counter()
    async with asyncio.timeout(timeout_s):
        while True:
            versions = await asyncio.gather(*(r.current_version() for r in racers))
            await asyncio.sleep(0.2)  # the snapshot a behind racer asked for
            if all(r.seen == v for r, v in zip(racers, versions, strict=True)):
                return time.perf_counter() - started


async def scenario(topo: Topology, redis: PrivateRedis, args: argparse.Namespace) -> list[str]:
    rng = random.Random(args.seed)
    teams, tally = await crews(topo.url, topo.ws_url, races=args.races, seats=args.seats, moves=400)
    racers = [r for team in teams for r in team]
    await asyncio.gather(*(r.close() for r in racers))
    # Half of each race on each process, directly: crossing needs Redis.
    process_of: dict[int, int] = {}
    for team in teams:
        for i, racer in enumerate(team):
            port = topo.ports[i % len(topo.ports)]
            racer.ws_base, racer.closing, racer.ws = f"ws://127.0.0.1:{port}", False, None
            racer.ready.clear()
            process_of[racer.player] = port
            await racer.open()
    await asyncio.gather(*(r.ready.wait() for r in racers))

    stop = asyncio.Event()
    play = asyncio.gather(*(r.play(HumanPace(random.Random(rng.random())), stop) for r in racers))
    await asyncio.sleep(args.before_s)
    acked_before = tally.acked
    down = time.perf_counter()
    await asyncio.to_thread(redis.stop)
    await asyncio.sleep(args.outage_s)
    acked_during = tally.acked - acked_before
    await asyncio.to_thread(redis.start)
    up = time.perf_counter()
    await asyncio.sleep(args.after_s)
    stop.set()
    await play

    # The first progress each racer got from the other process after Redis came back.
    first_cross: dict[int, float] = {}
    for at, to, about in tally.progress_log:
        if at >= up and process_of.get(to) != process_of.get(about) and to not in first_cross:
            first_cross[to] = at - up
    crossed_in_outage = sum(
        1
        for at, to, about in tally.progress_log
        if down + 0.5 < at < up and process_of.get(to) != process_of.get(about)
    )
    converged_s = await converge(racers, CONVERGE_BOUND_S)
    seen: dict[str, set[int]] = {r.code: set() for r in racers}
    for r in racers:
        seen[r.code].add(r.seen)
    in_db = await asyncio.to_thread(race_versions, topo.env, seen)
    for r in racers:
        await r.close()
    rows = await asyncio.to_thread(stored_moves, topo.env, [r.game for r in racers if r.game])
    report = audit(racers, rows)

    failures = list(tally.failures)
    if acked_during == 0:
        failures.append("no move was acknowledged while Redis was down")
    if not report.ok:
        failures.append("the database and the acknowledgements disagree")
    resumed = sorted(first_cross.values())
    if len(resumed) < len(racers):
        failures.append(f"{len(racers) - len(resumed)} racers never heard the other process again")
    elif resumed[-1] > RESUME_BOUND_S:
        failures.append(f"progress resumed only after {resumed[-1]:.1f} s")
    diverged = {
        code: (versions, in_db.get(code))
        for code, versions in seen.items()
        if versions != {in_db.get(code)}
    }
    if diverged:
        failures.append(f"clients did not converge on the database's versions: {diverged}")

    print(
        f"Redis restart: {len(racers)} racers in races of {args.seats} on"
        f" {len(topo.ports)} Daphne processes, Redis down {args.outage_s:.1f} s"
    )
    print(f"  moves acknowledged while Redis was down  {acked_during}")
    print(f"  progress crossing processes during the outage  {crossed_in_outage}")
    if resumed:
        print(
            f"  cross-process progress resumed after Redis returned:"
            f" first {resumed[0]:.2f} s, every racer by {resumed[-1]:.2f} s"
        )
    print(f"  all clients on the database's versions {converged_s:.2f} s after the race")
    print(latency_line("ack latency", tally.ack_ms))
    print(latency_line("progress delivery", tally.progress_ms))
    print("\n".join(report.lines()))
    return failures


def main() -> int:
    parser = fault_arguments(__doc__, races=2, seed=11, timeout_s=180.0, outage=(4.0, 8.0))
    args = parser.parse_args()
    with private_redis() as redis, production("fault_redis", redis_url=redis.url) as prod:
        failures = asyncio.run(bounded(scenario(prod.topo, redis, args), args.timeout_s))
    return verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
