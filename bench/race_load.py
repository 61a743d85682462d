"""Load a race server with racers on real websockets and print what it holds.

Starts Daphne (embedded defaults, or PostgreSQL + Redis with --real), seats N
racers in races of 8 on open deals, has each play a recorded game at a set
pace, and prints moves acknowledged per second, acknowledgement and progress
delivery latency (p50/p99), lost and duplicated moves, the server's memory,
and the same client against a bare echo websocket app on the same stack.

    .venv/bin/python bench/race_load.py --racers 64 --pace-ms 0
    .venv/bin/python bench/race_load.py --racers 64 --real
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import time
from datetime import datetime
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets

from games.engine import apply, legal_moves, new_game
from tests.live import WebClient
from tests.servers import daphne, database_env

VARIANT = "sultan"
SEAT = 8


def recorded_game(seed: int, limit: int) -> list[str]:
    """A greedy game on the deal: foundation plays first, then draw or redeal."""
    state, tokens = new_game(seed, VARIANT), []
    while state.status == "playing" and len(tokens) < limit:
        moves = legal_moves(state)
        plays = [m for m in moves if m not in ("draw", "redeal")]
        token = plays[0] if plays else moves[0]
        state = apply(state, token)
        tokens.append(token)
    return tokens


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    progress_ms: list[float] = field(default_factory=list)
    sent: int = 0
    acked: int = 0
    rejected: int = 0
    duplicates: int = 0
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Racer:
    def __init__(self, web: WebClient, code: str, tokens: list[str], stats: Stats) -> None:
        self.web, self.code, self.tokens, self.stats = web, code, tokens, stats
        self.ws: Any = None
        self.player = 0
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.started = asyncio.Event()
        self.ended = asyncio.Event()
        self.starts_at = 0.0

    async def open(self, ws_base: str) -> None:
        self.ws = await self.web.connect(ws_base, f"/ws/races/{self.code}/")
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message["type"]
            if kind in ("ack", "reject"):
                future = self.waiting.pop(message["id"], None)
                if future is not None:
                    future.set_result(message)
            elif kind == "progress" and message["player"] != self.player:
                sent = self.stats.sent_at.get((message["player"], message["seq"]))
                if sent is not None:
                    self.stats.progress_ms.append((now - sent) * 1000)
            elif kind == "snapshot":
                self.player = message["you"]["player"]
                if message["race"]["status"] == "running" and message["you"]["game"]:
                    # The server's clock and ours are the same machine's.
                    self.starts_at = datetime.fromisoformat(message["race"]["starts_at"]).timestamp()
                    self.started.set()
            elif kind == "end":
                self.ended.set()

    async def play(self, pace_s: float) -> None:
        await self.started.wait()
        await asyncio.sleep(max(0.0, self.starts_at - time.time()) + 0.05)
        seq = 0
        for i, token in enumerate(self.tokens):
            move_id = f"{self.player}-{i}"
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting[move_id] = future
            sent = time.perf_counter()
            self.stats.sent_at[(self.player, seq + 1)] = sent
            self.stats.sent += 1
            await self.ws.send(json.dumps({"type": "move", "token": token, "id": move_id, "seq": seq}))
            answer = await asyncio.wait_for(future, 30)
            self.stats.ack_ms.append((time.perf_counter() - sent) * 1000)
            if answer["type"] == "ack":
                self.stats.acked += 1
                self.stats.duplicates += answer["duplicate"]
                seq = answer["seq"]
            else:
                self.stats.rejected += 1
                print("rejected:", answer, file=sys.stderr)
                return
            if pace_s:
                await asyncio.sleep(pace_s)


async def run_race_load(base: str, ws_base: str, racers: int, pace_s: float, moves: int) -> tuple[Stats, float]:
    stats = Stats()
    crew: list[Racer] = []
    for r in range(racers // SEAT):
        deal = 1000 + r
        tokens = recorded_game(deal, moves)
        host = WebClient(base)
        _, url = host.post(
            "/races/new",
            {"nickname": f"host{r}", "time_limit": 60, "seats": SEAT, "deal": deal, "variant": VARIANT},
        )
        code = url.rstrip("/").rsplit("/", 1)[1]
        crew.append(Racer(host, code, tokens, stats))
        for s in range(1, SEAT):
            guest = WebClient(base)
            guest.post(f"/r/{code}/join", {"nickname": f"r{r}-{s}"})
            crew.append(Racer(guest, code, tokens, stats))
    for racer in crew:
        await racer.open(ws_base)
    await asyncio.sleep(0.5)
    for host in crew[::SEAT]:
        await host.ws.send(json.dumps({"type": "start"}))
    await asyncio.gather(*(r.started.wait() for r in crew))
    start = time.perf_counter()
    await asyncio.gather(*(r.play(pace_s) for r in crew))
    elapsed = time.perf_counter() - start
    await asyncio.sleep(0.5)  # late progress messages
    for racer in crew:
        await racer.ws.close()
    return stats, elapsed


async def run_echo(ws_base: str, sockets: int, frames: int) -> tuple[float, list[float]]:
    latencies: list[float] = []

    async def one() -> None:
        async with websockets.connect(ws_base + "/") as ws:
            payload = json.dumps({"type": "move", "token": "draw", "id": "x" * 8, "seq": 0})
            for _ in range(frames):
                sent = time.perf_counter()
                await ws.send(payload)
                await ws.recv()
                latencies.append((time.perf_counter() - sent) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(sockets)))
    return sockets * frames / (time.perf_counter() - start), latencies


def stored_moves(env: dict[str, str]) -> int:
    query = "SELECT count(*) FROM games_move WHERE token <> 'timeout'"
    if env.get("DATABASE_URL", "").startswith("postgres"):
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as conn:
            row = conn.execute(query).fetchone()
    else:
        with sqlite3.connect(env["SQLITE_PATH"]) as conn:
            row = conn.execute(query).fetchone()
    return int(row[0]) if row else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=64, help="a multiple of 8")
    parser.add_argument("--pace-ms", type=float, default=0, help="pause after each ack")
    parser.add_argument("--moves", type=int, default=150, help="moves per racer at most")
    parser.add_argument("--real", action="store_true", help="PostgreSQL and Redis instead of SQLite and memory")
    args = parser.parse_args()
    if args.racers % SEAT:
        parser.error("--racers must be a multiple of 8")

    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    if args.real:
        os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
        redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
    with ExitStack() as stack:
        env = stack.enter_context(database_env("bench"))
        env.update({"SULTAN_RACE_COUNTDOWN_S": "1", "SULTAN_WS_RATE_PER_S": "1000", "DJANGO_LOG_LEVEL": "WARNING"})
        if args.real:
            env["REDIS_URL"] = redis
        server = stack.enter_context(daphne(env))
        rss_before = rss_mb(server.process.pid)
        stats, elapsed = asyncio.run(
            run_race_load(server.url, server.ws_url, args.racers, args.pace_ms / 1000, args.moves)
        )
        rss_after = rss_mb(server.process.pid)
        stored = stored_moves(env)

        echo_env = {**env, "DJANGO_SETTINGS_MODULE": "sultan_site.settings"}
        with daphne_app(echo_env, "bench.echo_asgi:application") as echo:
            echo_rate, echo_ms = asyncio.run(
                run_echo(echo.ws_url, args.racers, max(1, stats.sent // args.racers))
            )

    rate = stats.acked / elapsed
    backend = "PostgreSQL + Redis" if args.real else "SQLite + in-memory layer"
    print(f"race server ({backend}), one Daphne process, {args.racers} racers in races of {SEAT}, pace {args.pace_ms:g} ms")
    print(f"  moves acknowledged     {stats.acked:>8}  in {elapsed:6.2f} s  = {rate:8.0f} moves/s")
    print(f"  ack latency            p50 {pct(stats.ack_ms, .5):7.1f} ms   p99 {pct(stats.ack_ms, .99):7.1f} ms")
    print(f"  progress delivery      p50 {pct(stats.progress_ms, .5):7.1f} ms   p99 {pct(stats.progress_ms, .99):7.1f} ms   ({len(stats.progress_ms)} deliveries)")
    print(f"  lost (sent, not acked) {stats.sent - stats.acked - stats.rejected:>8}")
    print(f"  rejected               {stats.rejected:>8}")
    print(f"  duplicated             {stats.duplicates:>8}")
    print(f"  stored vs acknowledged {stored:>8} / {stats.acked}")
    print(f"  server memory          {rss_before:.0f} MB before, {rss_after:.0f} MB after")
    print(f"bare echo, same client and stack: {echo_rate:8.0f} msgs/s, p50 {pct(echo_ms, .5):.1f} ms, p99 {pct(echo_ms, .99):.1f} ms")
    print(f"race / echo: {rate / echo_rate:.2f}")
    if stats.sent != stats.acked or stats.duplicates or stored != stats.acked:
        sys.exit("FAILED: lost, duplicated or unstored moves")


from contextlib import contextmanager  # noqa: E402


@contextmanager
def daphne_app(env: dict[str, str], app: str):  # type: ignore[no-untyped-def]
    import subprocess

    from tests.servers import free_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(1.5)
        yield type("Echo", (), {"ws_url": f"ws://127.0.0.1:{port}"})
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main()
