"""What every fault script shares: the production topology on a fresh database, and
crews of scripted racers seated through it.

Each script builds on `production()` (deploy/serve_prod.py's Topology: Daphne
processes behind nginx, PostgreSQL, Redis, DEBUG off) and `crews()`; each
prints its figures and exits non-zero when a promise was broken.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.racers import Racer, Tally, recorded_game, seat_races, start_races  # noqa: E402
from deploy.serve_prod import Topology, topology  # noqa: E402
from tests.servers import free_port  # noqa: E402
from tests.services import REDIS_URL, fresh_postgres_database  # noqa: E402

T = TypeVar("T")

# The per-address socket limits lifted for a bench whose racers share one address:
# 10,000 per process (nginx: times the processes, at most its 65,535).
ONE_ADDRESS_SOCKETS: dict[str, str] = {
    "SULTAN_WS_OPEN_PER_ADDRESS": "10000",
    "SULTAN_WS_ADDRESS_CONNECT_BURST": "10000",
    "SULTAN_WS_ADDRESS_CONNECTS_PER_MIN": "600000",
}


@dataclass
class Production:
    topo: Topology
    log: Path

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def production(
    label: str,
    *,
    processes: int = 2,
    redis_url: str = REDIS_URL,
    store: str = "postgres",
    env: dict[str, str] | None = None,
) -> Iterator[Production]:
    """The topology on a database of its own (a fresh PostgreSQL database, dropped afterwards,
    or with store="sqlite" a SQLite file); redis_url="" runs the in-memory channel layer.

    SULTAN_COLLECTED_STATIC names a folder collectstatic has already filled from this tree
    (the suite collects once for all its fault scripts): nginx serves it, nothing is collected.
    SULTAN_MIGRATED_TEMPLATE names a PostgreSQL database migrated from this tree (the suite
    migrates one for all its fault scripts): the run's database is a copy, nothing migrates.
    """
    collected = os.environ.get("SULTAN_COLLECTED_STATIC", "")
    template = os.environ.get("SULTAN_MIGRATED_TEMPLATE", "") if store != "sqlite" else ""
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        Path(tmp).chmod(0o755)  # nginx's workers (nobody, under root) read the static files
        if store == "sqlite":
            database_url = f"sqlite:///{tmp}/bench.sqlite3"
        else:
            database_url = stack.enter_context(fresh_postgres_database(label, template=template))
        base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        base.update(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            DJANGO_STATIC_ROOT=collected or str(Path(tmp) / "static"),
            DJANGO_LOG_LEVEL="WARNING",
            DJANGO_LOG_FORMAT="plain",
            SULTAN_RACE_COUNTDOWN_S="1",
            # Every scripted racer comes from one address: hundreds of "people"
            # creating races there is the bench, not an abuser (games/quotas/).
            SULTAN_QUOTA_RACE="1000000,1000000",
            # ... and as many new guests and sign-ups (tests/fairness/test_sybils.py
            # tests those per-address throttles themselves).
            SULTAN_QUOTA_GUEST="1000000,1000000",
            SULTAN_QUOTA_SIGNUP="1000000,1000000",
            # ... and as many sockets held open and opened (games/races/limits.py;
            # nginx's cap follows, deploy/serve_prod.py). Each racer is still a
            # client of its own, held to its session's bucket: abuse.py's flooders
            # are refused their reconnect loops there.
            **ONE_ADDRESS_SOCKETS,
            # Redis pub/sub is not scoped by database number: channels of this run's own.
            SULTAN_CHANNEL_PREFIX=f"bench-{label}-{os.getpid()}",
            **(env or {}),
        )
        log_path = Path(tmp) / "servers.log"
        log = stack.enter_context(log_path.open("wb"))
        topo = stack.enter_context(
            topology(
                base,
                listen=free_port(),
                ports=[free_port() for _ in range(processes)],
                log=log,
                prepare=not (collected and template),
                collect=not collected,
            )
        )
        try:
            yield Production(topo, log_path)
        finally:
            # The whole log outlives the run, for the post-mortem of a failure.
            kept = ROOT / "artifacts" / "faults" / f"{label}.log"
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(log_path, kept)


async def crews(
    base: str, ws_base: str, *, races: int, seats: int, moves: int, first_deal: int = 1000
) -> tuple[list[list[Racer]], Tally]:
    """`races` races of `seats` racers on open deals, started; each racer holds its game."""
    seated = await asyncio.to_thread(seat_races, base, range(first_deal, first_deal + races), seats)
    tally = Tally()
    crews = [
        [
            Racer(
                client,
                ws_base,
                race.code,
                recorded_game(race.deal, moves),
                tally,
                f"{race.code}/{i}",
            )
            for i, client in enumerate(race.clients)
        ]
        for race in seated
    ]
    await start_races(crews)
    return crews, tally


async def bounded(work: Awaitable[T], timeout_s: float) -> T:
    """`work`, or a clear failure when it takes longer than `timeout_s` in all."""
    deadline = asyncio.timeout(timeout_s)
    try:
        async with deadline:
            return await work
    except TimeoutError:
        if deadline.expired():
            raise SystemExit(f"FAILED: did not finish within {timeout_s:.0f} s") from None
        raise


def fault_arguments(
    doc: str | None,
    *,
    races: int,
    seed: int,
    timeout_s: float,
    seats: bool = True,
    outage: tuple[float, float] | None = None,
) -> argparse.ArgumentParser:
    """The arguments every fault script takes; `outage` is the default seconds of play
    before and after an outage, for the scripts that stop a service."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--races", type=int, default=races, help="honest races")
    if seats:
        parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--timeout-s", type=float, default=timeout_s, help="give up after this")
    if outage:
        parser.add_argument("--before-s", type=float, default=outage[0])
        parser.add_argument("--outage-s", type=float, default=3.0)
        parser.add_argument("--after-s", type=float, default=outage[1])
    return parser


def latency_bound_argument(parser: argparse.ArgumentParser, what: str) -> None:
    # The suite runs the abuse scripts for their promises (refused, alive); a p99 of a
    # few dozen samples on a shared 2-core machine is one hiccup, a figure to read there.
    parser.add_argument(
        "--no-latency-bound",
        dest="latency_bound",
        action="store_false",
        help=f"print the honest racers' p99 under {what} without failing on it",
    )


def verdict(failures: list[str]) -> int:
    if failures:
        print("FAILED:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print("OK")
    return 0
