"""Fault: the database unavailable for a moment in the middle of a race.

The race runs on a PostgreSQL database of its own. For `--outage-s` seconds
that database refuses connections and its open connections are cut
(ALLOW_CONNECTIONS false, pg_terminate_backend): the shared server itself is
never stopped. Promises checked: a move meanwhile is refused with the
`unavailable` code, never acknowledged unless stored; /healthz names the
database; when it is back the race goes on and the database agrees with every
acknowledgement.

    .venv/bin/python bench/faults/db_outage.py --races 2 --outage-s 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

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
from bench.racers import latency_line  # noqa: E402
from deploy.serve_prod import Topology, get_status  # noqa: E402

RESUME_BOUND_S = 10.0


def set_database_open(database_url: str, open_: bool) -> None:
    """Open or close a database to connections; closing also cuts the open ones."""
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(open_).lower()}')
        if not open_:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )


async def scenario(topo: Topology, args: argparse.Namespace) -> list[str]:
    rng = random.Random(args.seed)
    teams, tally = await crews(topo.url, topo.ws_url, races=args.races, seats=args.seats, moves=400)
    racers = [r for team in teams for r in team]
    stop = asyncio.Event()
    play = asyncio.gather(*(r.play(HumanPace(random.Random(rng.random())), stop) for r in racers))
    await asyncio.sleep(args.before_s)

    database_url = topo.env["DATABASE_URL"]
    await asyncio.to_thread(set_database_open, database_url, False)
    down = time.perf_counter()
    refused_before = tally.rejected["unavailable"]
    await asyncio.sleep(min(1.0, args.outage_s / 2))
    health_during = await asyncio.to_thread(get_status, f"{topo.url}/healthz", 5.0, topo.host)
    await asyncio.sleep(max(0.0, args.outage_s - (time.perf_counter() - down)))
    await asyncio.to_thread(set_database_open, database_url, True)
    up = time.perf_counter()
    refused = tally.rejected["unavailable"] - refused_before
    acks_at_up = {r.name: len(r.acked) for r in racers}
    await asyncio.sleep(args.after_s)
    health_after = await asyncio.to_thread(get_status, f"{topo.url}/healthz", 5.0, topo.host)
    stop.set()
    await play
    for r in racers:
        await r.close()
    rows = await asyncio.to_thread(stored_moves, topo.env, [r.game for r in racers if r.game])
    report = audit(racers, rows)
    resumed = [r for r in racers if len(r.acked) > acks_at_up[r.name]]
    # Each racer's first acknowledgement once the database was back.
    back_after = sorted(min(t for t in r.acked_at.values() if t >= up) - up for r in resumed)
    moves_met = sum(1 for r in racers for sent in r.ledger.values() if sent.attempts > 1)

    failures = list(tally.failures)
    if refused == 0:
        failures.append("no move was refused as unavailable during the outage")
    if not report.ok:
        failures.append("the database and the acknowledgements disagree")
    if len(resumed) < len(racers):
        failures.append(f"{len(racers) - len(resumed)} racers made no move after the outage")
    elif back_after[-1] > RESUME_BOUND_S:
        failures.append(f"the race resumed only {back_after[-1]:.1f} s after the database")
    if health_during != 503:
        failures.append(f"/healthz answered {health_during} during the outage, not 503")
    if health_after != 200:
        failures.append(f"/healthz answered {health_after} after the outage, not 200")
    print(
        f"database outage: {len(racers)} racers in races of {args.seats} through nginx over"
        f" {len(topo.ports)} Daphne processes, database closed {args.outage_s:.1f} s"
    )
    print(f"  moves that met the outage (refused, then retried) {moves_met}")
    print(f"  refusals with the unavailable code  {refused}")
    print(f"  /healthz during / after the outage  {health_during} / {health_after}")
    print(f"  racers who moved again after it     {len(resumed)} / {len(racers)}")
    if back_after:
        print(
            f"  first ack after the database came back: {back_after[0]:.2f} s,"
            f" every racer by {back_after[-1]:.2f} s"
        )
    print(f"  errors sent to racers               {dict(tally.errors) or 'none'}")
    print(latency_line("ack latency", tally.ack_ms))
    print("\n".join(report.lines()))
    return failures


def main() -> int:
    parser = fault_arguments(__doc__, races=2, seed=13, timeout_s=180.0, outage=(3.0, 5.0))
    args = parser.parse_args()
    with production("fault_db") as prod:
        failures = asyncio.run(bounded(scenario(prod.topo, args), args.timeout_s))
    return verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
