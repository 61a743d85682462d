"""Load a race server with racers on real websockets and print what it holds.

Starts the production topology (deploy/serve_prod.py: DEBUG off, nginx in front)
with one or two Daphne processes, on PostgreSQL and Redis or on SQLite and the
in-memory channel layer (one process only); seats racers in races of 8 on open
deals over HTTP, and has each play a recorded game over a websocket, at a
human pace with bursts (bench/racers.py, HumanPace) or at a fixed pace.
Several client processes share the racers, so the client is not the limit.

Prints moves acknowledged per second, acknowledgement and progress-delivery
latency (p50/p99), lost and duplicated moves, the database against the
acknowledgements, and the memory of each Daphne process and of Redis before,
right after and a while after each round (a second round shows whether
memory grows). Exits non-zero if a move was lost, duplicated or not stored.
`--minutes M` runs a soak instead (bench/soak.py): race after race for M
minutes, a line of memory and the outbox every minute, the audit at the end.

    .venv/bin/python bench/race_load.py --processes 2 --racers 504 --moves 60 --clients 2
    .venv/bin/python bench/race_load.py --processes 1 --store sqlite --racers 64 --pace-ms 0
    .venv/bin/python bench/race_load.py --processes 2 --racers 200 --minutes 30
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.faults.harness import production  # noqa: E402
from bench.ledger import RacerRecord, audit, record_of, stored_moves  # noqa: E402
from bench.pace import pace_for  # noqa: E402
from bench.racers import SEAT, Racer, Tally, latency_line, recorded_game, seat_races  # noqa: E402
from bench.scrape import Scrape, histogram_line, scrape  # noqa: E402
from bench.serverside import Memory, cpu_by_part, memory  # noqa: E402
from bench.soak import soak  # noqa: E402
from deploy.serve_prod import Topology  # noqa: E402

ROUND_TIMEOUT_S = 600.0
SETTLE_S = 5.0


@dataclass
class ClientResult:
    tally: Tally
    racers: list[RacerRecord]
    started: float  # wall clock, when its races started
    ended: float
    connect_s: float
    cpu_s: float  # this client process's CPU time while racing
    began: float  # perf_counter (one clock for the machine's processes) at the first start


@dataclass
class Round:
    results: list[ClientResult] = field(default_factory=list)
    memory: dict[str, Memory] = field(default_factory=dict)
    server_cpu_s: dict[str, float] = field(default_factory=dict)  # while the races ran
    metrics: Scrape = field(default_factory=Scrape)  # the servers' figures for the round


async def client(
    base: str,
    ws_base: str,
    deals: list[int],
    args: argparse.Namespace,
    barrier: Barrier,
    seed: int,
) -> ClientResult:
    """One client process's share of the races: seated, connected, started, played."""
    rng = random.Random(seed)
    seated = await asyncio.to_thread(seat_races, base, deals)
    tally = Tally()
    crews = [
        [
            Racer(c, ws_base, race.code, recorded_game(race.deal, args.moves), tally, race.code)
            for c in race.clients
        ]
        for race in seated
    ]
    racers = [r for crew in crews for r in crew]
    for racer in racers:
        racer.sync_patience_s = args.sync_patience_ms / 1000
        racer.sync_patience_max_s = args.sync_patience_max_ms / 1000
    connecting = time.perf_counter()
    for racer in racers:
        await racer.open()
    await asyncio.gather(*(r.ready.wait() for r in racers))
    connect_s = time.perf_counter() - connecting
    await asyncio.to_thread(barrier.wait, 120)  # every client connected: start together
    # Races start on their own, not all in the same second: each host within the stagger.
    starts = sorted((rng.uniform(0, args.stagger_s), i) for i in range(len(crews)))
    began = time.perf_counter()
    started = time.time()  # the rate counts the stagger: an underestimate, never more
    cpu_before = time.process_time()
    # Each racer plays from its own race's start.
    playing = asyncio.gather(
        *(
            r.play(pace_for(args.pace_ms, args.median_s, random.Random(rng.random())))
            for r in racers
        )
    )
    for at, i in starts:
        await asyncio.sleep(max(0.0, at - (time.perf_counter() - began)))
        await crews[i][0].send({"type": "start"})
    await asyncio.wait_for(asyncio.gather(*(r.started.wait() for r in racers)), 60 + args.stagger_s)
    await playing
    ended = time.time()
    cpu = time.process_time() - cpu_before
    await asyncio.sleep(0.5)  # the last progress messages
    for racer in racers:
        await racer.close()
    tally.sent_at.clear()  # large, and only used in this process
    tally.progress_seen.clear()
    tally.progress_log.clear()
    records = [record_of(r) for r in racers]
    return ClientResult(tally, records, started, ended, connect_s, cpu, began)


def client_process(
    base: str,
    ws_base: str,
    deals: list[int],
    args: argparse.Namespace,
    barrier: Barrier,
    seed: int,
    out: Any,
) -> None:
    try:
        out.put(asyncio.run(client(base, ws_base, deals, args, barrier, seed)))
    except BaseException as failure:
        barrier.abort()
        out.put(failure)
        raise


def run_round(topo: Topology, args: argparse.Namespace, first_deal: int) -> Round:
    done = Round()
    races = args.racers // SEAT
    deals = list(range(first_deal, first_deal + races))
    shares = [deals[i :: args.clients] for i in range(args.clients)]
    shares = [share for share in shares if share]
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(shares) + 1)
    out = context.Queue()
    done.memory["before"] = memory(topo)
    metrics_urls = [topo.metrics_url(port) for port in topo.ports]
    metrics_before = scrape(metrics_urls)
    workers = [
        context.Process(
            target=client_process,
            args=(topo.url, topo.ws_url, share, args, barrier, args.seed + i, out),
        )
        for i, share in enumerate(shares)
    ]
    for worker in workers:
        worker.start()
    # The server's CPU from the moment every racer is connected (this process waits at
    # the clients' barrier too) to the end of the races.
    barrier.wait(ROUND_TIMEOUT_S)
    cpu_before = cpu_by_part(topo)
    for _ in workers:
        result = out.get(timeout=ROUND_TIMEOUT_S)
        if isinstance(result, BaseException):
            raise RuntimeError("a client process failed") from result
        done.results.append(result)
    cpu_after = cpu_by_part(topo)
    done.metrics = scrape(metrics_urls).minus(metrics_before)
    done.server_cpu_s = {part: cpu_after[part] - cpu_before[part] for part in cpu_after}
    for worker in workers:
        worker.join(30)
    done.memory["right after"] = memory(topo)
    time.sleep(SETTLE_S)
    done.memory[f"{SETTLE_S:.0f} s later"] = memory(topo)
    return done


def report(topo: Topology, args: argparse.Namespace, rounds: list[Round]) -> list[str]:
    failures: list[str] = []
    store = "SQLite + in-memory layer" if args.store == "sqlite" else "PostgreSQL + Redis"
    pace = (
        f"{args.pace_ms:g} ms"
        if args.pace_ms is not None
        else f"human (median {args.median_s} s, bursts)"
    )
    pace += f", sync patience {args.sync_patience_ms:g}-{args.sync_patience_max_ms:g} ms"
    print(
        f"race load: {args.racers} racers in races of {SEAT}, {len(topo.ports)} Daphne"
        f" process(es) behind nginx, {store}, pace {pace}, {args.moves} moves each at most,"
        f" {args.clients} client process(es)"
    )
    for n, done in enumerate(rounds, start=1):
        tally = Tally()
        for result in done.results:
            tally.merge(result.tally)
        elapsed = max(r.ended for r in done.results) - min(r.started for r in done.results)
        final_rejects = sum(tally.rejected.values()) - tally.rejected["unavailable"]
        lost = tally.sent - tally.acked - final_rejects
        games = [r.game for result in done.results for r in result.racers if r.game]
        rows = stored_moves(topo.env, games)
        check = audit([r for result in done.results for r in result.racers], rows)
        print(f"round {n}:")
        print(f"  connected in           {max(r.connect_s for r in done.results):8.1f} s")
        print(
            f"  moves acknowledged     {tally.acked:>8}  in {elapsed:6.1f} s"
            f"  = {tally.acked / elapsed:6.0f} moves/s"
        )
        print(latency_line("ack latency", tally.ack_ms))
        # The same figures as the servers measured them (games/metrics/): the
        # server's ack time leaves out the network, nginx and the socket's inbox.
        print(histogram_line("ack, server side", done.metrics, "sultan_move_ack_seconds"))
        print(latency_line("progress delivery", tally.progress_ms))
        print(
            histogram_line(
                "progress, server side", done.metrics, "sultan_progress_delivery_seconds"
            )
        )
        accepted = done.metrics.total("sultan_moves_total", source="race", outcome="accepted")
        print(f"  moves accepted (metrics){accepted:>7.0f}  (clients saw {tally.acked} acks)")
        # Once every race has started and played a while: the steady state.
        steady_from = min(r.began for r in done.results) + args.stagger_s + 10
        steady = [ms for at, ms in tally.ack_log if at >= steady_from]
        print(latency_line("ack, steady state", steady))
        print(f"  lost (sent, no answer) {lost:>8}")
        print(f"  refused                {final_rejects:>8}  {dict(tally.rejected) or ''}")
        print(f"  duplicated (retries)   {tally.recovered:>8}")
        print(f"  socket drops           {tally.drops:>8}")
        print(
            f"  syncs asked (gaps)     {tally.syncs:>8}  ({tally.sync_snapshots} answered"
            " with a snapshot, the rest from the history)"
        )
        moves_done = max(1, tally.acked)
        print(
            f"  frames out per move    {tally.frames_in / moves_done:8.2f}"
            "  (frames the racers received, per move acknowledged)"
        )
        print("\n".join(check.lines()))
        moves = max(1, tally.acked)
        cpu = {**done.server_cpu_s, "clients": sum(r.cpu_s for r in done.results)}
        per_move = ", ".join(
            f"{part} {seconds / moves * 1000:.2f}" for part, seconds in cpu.items()
        )
        print(f"  CPU per move (ms)      {per_move}")
        print(f"  CPU in all             {sum(cpu.values()) / elapsed * 100:.0f}% of one core")
        for label, mem in done.memory.items():
            print(f"  memory {label:<15} {mem.line()}")
        if lost or not check.ok or check.stored != check.acked or tally.failures:
            failures.append(f"round {n}: lost, unstored or failed moves")
        if not check.announced:
            failures.append(f"round {n}: stored moves never announced")
            failures += tally.failures[:10]
    return failures


async def _echo_sockets(ws_base: str, sockets: int, frames: int) -> tuple[float, list[float]]:
    import json

    import websockets

    latencies: list[float] = []
    payload = json.dumps({"type": "move", "token": "draw", "id": "x" * 8, "seq": 0})

    async def one() -> None:
        async with websockets.connect(ws_base + "/") as ws:
            for _ in range(frames):
                sent = time.perf_counter()
                await ws.send(payload)
                await ws.recv()
                latencies.append((time.perf_counter() - sent) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(sockets)))
    return sockets * frames / (time.perf_counter() - start), latencies


def echo(sockets: int, frames: int) -> float:
    """The ceiling: the same client against bench/echo_asgi.py on one Daphne process."""
    import os
    import subprocess

    from deploy.serve_prod import get_status
    from tests.servers import free_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-p", str(port), "bench.echo_asgi:application"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while get_status(f"http://127.0.0.1:{port}/") != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        rate, ms = asyncio.run(_echo_sockets(f"ws://127.0.0.1:{port}", sockets, frames))
    finally:
        process.terminate()
        process.wait(10)
    print(f"bare echo, one Daphne process, {sockets} sockets: {rate:.0f} messages/s")
    print(latency_line("echo round trip", ms))
    return rate


# What one move cost in frames before progress was coalesced: one in, the ack,
# and a progress frame to each of the race's 8 sockets (issue #13's baseline).
FRAMES_PER_MOVE_BEFORE = SEAT + 2


def print_ratio(rounds: list[Round], echo_rate: float, processes: int) -> None:
    """Moves per second a process against the frame-level limit: the echo's frames per
    second (a round trip is a frame in and one out) divided by the frames one move cost
    before coalescing; and the frames a move costs now, as the racers counted them."""
    echo_frames = 2 * echo_rate
    limit = echo_frames / FRAMES_PER_MOVE_BEFORE
    for n, done in enumerate(rounds, start=1):
        acked = sum(len(r.tally.ack_ms) for r in done.results)
        received = sum(r.tally.frames_in for r in done.results)
        elapsed = max(r.ended for r in done.results) - min(r.started for r in done.results)
        per_process = acked / elapsed / processes
        frames_now = 1 + received / max(1, acked)  # the move's own frame in, and all out
        print(
            f"round {n} against the echo: {per_process:.0f} moves/s a process"
            f" / ({echo_frames:.0f} echo frames/s / {FRAMES_PER_MOVE_BEFORE} frames a move)"
            f" = {per_process / limit:.0%} of the frame-level limit;"
            f" a move costs {frames_now:.2f} frames now"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--racers", type=int, default=64, help="a multiple of 8")
    parser.add_argument("--processes", type=int, default=2, help="Daphne processes")
    parser.add_argument("--store", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--moves", type=int, default=60, help="moves per racer at most")
    parser.add_argument("--median-s", type=float, default=1.0, help="human pace: median gap")
    parser.add_argument("--pace-ms", type=float, default=None, help="a fixed pace instead")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument(
        "--sync-patience-ms",
        type=float,
        default=500,
        help="how long a version gap may stay open before asking for a snapshot (0: at once)",
    )
    parser.add_argument(
        "--sync-patience-max-ms",
        type=float,
        default=5000,
        help="longer while gaps fill late, as the race page waits (the first: a fixed wait)",
    )
    parser.add_argument(
        "--stagger-s", type=float, default=10.0, help="races start within this many seconds"
    )
    parser.add_argument(
        "--echo", action="store_true", help="also a bare echo websocket on one Daphne process"
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds, on new races each")
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="a soak instead of rounds: race after race for this long (bench/soak.py)",
    )
    parser.add_argument("--sample-s", type=float, default=60.0, help="the soak's line every")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if args.racers % SEAT:
        parser.error("--racers must be a multiple of 8")
    if args.store == "sqlite" and args.processes != 1:
        parser.error("SQLite and the in-memory channel layer serve one process only")
    if args.minutes is not None and (args.echo or args.rounds != 1):
        parser.error("--minutes is a soak: no --rounds, no --echo")
    redis_url = "" if args.store == "sqlite" else None
    options: dict[str, Any] = {"processes": args.processes, "store": args.store}
    if redis_url is not None:
        options["redis_url"] = redis_url
    rounds: list[Round] = []
    with production("bench_load", **options) as prod:
        if args.minutes is not None:
            failures = soak(prod.topo, args)
        else:
            rounds = [
                run_round(prod.topo, args, first_deal=1000 + n * args.racers)
                for n in range(args.rounds)
            ]
            failures = report(prod.topo, args, rounds)
    if args.echo:
        # Enough round trips for a steady figure, whatever the race's length.
        print_ratio(rounds, echo(args.racers, frames=max(args.moves, 400)), args.processes)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
