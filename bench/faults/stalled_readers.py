"""Fault: racers whose clients stop reading their sockets, beside honest racers.

Races of 8 seats on the production topology (one Daphne process behind nginx,
so its memory is the one measured): in each, the last `--stalled-per-race`
racers connect straight to the Daphne process (through nginx, its buffers and
the kernel's on both of its sides would hide the first megabytes), then never
read past the handshake (a tiny receive buffer),
asking for a snapshot (`sync` with `force`) every `--sync-every-s` so the
server has frames to hold for them; when the server drops one, it connects
again and stalls again. The others race at a human pace.

Printed every few seconds: the Daphne process's RSS, the kernel's memory for
TCP sockets (the machine's: a stalled socket's send buffer is there, not in
the RSS), moves acknowledged, and the stalled sockets the server closed
(docs/protocol.md, *Slow readers*).
Promises checked: every honest move acknowledged in order, the server
closed stalled sockets, and its RSS at the end is within `--rss-bound-mb`
of the RSS once everyone was seated. `--no-bound` lifts the limits
(SULTAN_WS_SHED_BYTES and the rest set sky-high) to show the memory
without them; it fails only on the honest racers' promises.

    .venv/bin/python bench/faults/stalled_readers.py --races 25 --duration-s 60
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import socket
import struct
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.faults.harness import bounded, fault_arguments, production, verdict  # noqa: E402
from bench.pace import HumanPace  # noqa: E402
from bench.racers import (  # noqa: E402
    Racer,
    Tally,
    latency_line,
    recorded_game,
    rss_mb,
    seat_races,
    start_races,
)
from deploy.serve_prod import Topology  # noqa: E402
from tests.live import WebClient  # noqa: E402

SKY_HIGH = str(2**40)


def _masked(text: str) -> bytes:
    payload, mask = text.encode(), os.urandom(4)
    return (
        struct.pack("!BB", 0x81, 0x80 | len(payload))
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


SYNC = json.dumps({"type": "sync", "v": 0, "force": True})


class StalledReader:
    """A racer's client that reads its socket's handshake and nothing after it."""

    def __init__(self, web: WebClient, host: str, port: int, code: str) -> None:
        self.web, self.host, self.port, self.code = web, host, port, code
        self.connects = 0
        self.dropped = 0
        self.refused: Counter[str] = Counter()  # failed connects, by what was seen

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (self.host, self.port))
        # A small stream limit: past it asyncio stops reading the socket, as a frozen tab does.
        reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
        headers = self.web.socket_headers(self.web.base)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws/races/{self.code}/ HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Cookie: {headers['Cookie']}\r\nOrigin: {headers['Origin']}\r\n\r\n"
            ).encode()
        )
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        if not answer.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(answer.split(b"\r\n", 1)[0].decode(errors="replace"))
        self.connects += 1
        return reader, writer

    async def run(self, stop: asyncio.Event, sync_every_s: float) -> None:
        frame = _masked(SYNC)
        while not stop.is_set():
            try:
                _, writer = await self._connect()
            except (OSError, TimeoutError, asyncio.IncompleteReadError) as failure:
                self.refused[str(failure)[:40] or type(failure).__name__] += 1
                await asyncio.sleep(1.0)
                continue
            try:
                while not stop.is_set():
                    writer.write(frame)
                    await asyncio.wait_for(writer.drain(), 5)
                    await asyncio.sleep(sync_every_s)
                    if writer.transport.is_closing():
                        raise ConnectionResetError
            except (OSError, TimeoutError):
                self.dropped += 1  # the server let go of us: stall again on a new socket
            finally:
                writer.transport.abort()


def tcp_memory_mb() -> float:
    """The kernel's memory for every TCP socket of the machine (other programs' too)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return float("nan")


def _slow_reader_closes(topo: Topology) -> float:
    url = topo.metrics_url(topo.ports[0])
    with urllib.request.urlopen(url, timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith('sultan_slow_readers_total{what="closed"}'):
                return float(line.split()[1])
    return 0.0


async def scenario(topo: Topology, args: argparse.Namespace) -> tuple[list[str], dict[str, float]]:
    rng = random.Random(args.seed)
    seated = await asyncio.to_thread(seat_races, topo.url, range(1000, 1000 + args.races), 8)
    honest_seats = 8 - args.stalled_per_race
    tally = Tally()
    teams = [
        [
            Racer(
                c, topo.ws_url, race.code, recorded_game(race.deal, 400), tally, f"{race.code}/{i}"
            )
            for i, c in enumerate(race.clients[:honest_seats])
        ]
        for race in seated
    ]
    await start_races(teams)
    pid = topo.daphnes[topo.ports[0]].pid
    stalled = [
        StalledReader(c, "127.0.0.1", topo.ports[0], race.code)
        for race in seated
        for c in race.clients[honest_seats:]
    ]
    racers = [r for team in teams for r in team]
    for racer in racers:  # as the race page waits for a gap to fill (docs/protocol.md)
        racer.sync_patience_s, racer.sync_patience_max_s = 0.5, 5.0
    stop = asyncio.Event()
    seated_rss = rss_mb(pid)
    print(
        f"stalled readers: {len(racers)} honest racers and {len(stalled)} stalled readers in"
        f" {args.races} races, one Daphne process, limits {'off' if args.no_bound else 'on'}"
    )
    print(
        f"  {'s':>4} {'RSS MB':>8} {'TCP MB':>7} {'acked':>7} {'stalled connects':>17}"
        f" {'closed':>7}"
    )
    play = asyncio.gather(*(r.play(HumanPace(random.Random(rng.random())), stop) for r in racers))
    stalling = asyncio.gather(*(s.run(stop, args.sync_every_s) for s in stalled))
    started = time.monotonic()
    peak = seated_rss
    while (elapsed := time.monotonic() - started) < args.duration_s:
        await asyncio.sleep(args.every_s)
        rss = rss_mb(pid)
        peak = max(peak, rss)
        connects = sum(s.connects for s in stalled)
        closed = await asyncio.to_thread(_slow_reader_closes, topo)
        tcp = tcp_memory_mb()
        print(
            f"  {elapsed:>4.0f} {rss:>8.1f} {tcp:>7.1f} {tally.acked:>7} {connects:>17}"
            f" {closed:>7.0f}",
            flush=True,
        )
    stop.set()
    await play
    await stalling
    final_rss = rss_mb(pid)
    closed = await asyncio.to_thread(_slow_reader_closes, topo)
    for r in racers:
        await r.close()
    failures = list(tally.failures)
    if tally.acked == 0:
        failures.append("no honest move was acknowledged")
    print(f"  moves sent / acknowledged   {tally.sent} / {tally.acked}")
    print(f"  honest syncs on a gap       {tally.syncs}")
    print(latency_line("ack latency", tally.ack_ms))
    print(f"  RSS seated / peak / end     {seated_rss:.1f} / {peak:.1f} / {final_rss:.1f} MB")
    print(f"  stalled sockets closed      {closed:.0f}")
    refused = sum((s.refused for s in stalled), Counter[str]())
    print(f"  stalled reconnects failed   {dict(refused) or 0}")
    if not args.no_bound:
        if not closed:
            failures.append("no stalled socket was closed")
        if final_rss - seated_rss > args.rss_bound_mb:
            failures.append(f"RSS grew {final_rss - seated_rss:.1f} MB (bound {args.rss_bound_mb})")
    return failures, {"peak_rss_mb": peak, "closed": closed}


def main() -> int:
    parser = fault_arguments(__doc__, races=25, seed=11, timeout_s=280.0, seats=False)
    parser.add_argument("--stalled-per-race", type=int, default=2)
    parser.add_argument("--duration-s", type=float, default=60.0)
    parser.add_argument("--every-s", type=float, default=5.0, help="print a line this often")
    parser.add_argument("--sync-every-s", type=float, default=0.1, help="a stalled reader's ask")
    parser.add_argument("--rss-bound-mb", type=float, default=80.0)
    parser.add_argument("--shed-bytes", type=int, help="SULTAN_WS_SHED_BYTES (default: its own)")
    parser.add_argument("--close-bytes", type=int, help="SULTAN_WS_STALL_CLOSE_BYTES")
    parser.add_argument("--close-s", type=int, help="SULTAN_WS_STALL_CLOSE_S")
    parser.add_argument("--no-bound", action="store_true", help="lift the slow-reader limits")
    args = parser.parse_args()
    # A minute's run at the production limits barely reaches them (a stalled reader is
    # sent a few KB a second): smaller ones show in a minute what the defaults do in ten.
    env: dict[str, str] = {
        name: str(value)
        for name, value in (
            ("SULTAN_WS_SHED_BYTES", args.shed_bytes),
            ("SULTAN_WS_STALL_CLOSE_BYTES", args.close_bytes),
            ("SULTAN_WS_STALL_CLOSE_S", args.close_s),
        )
        if value is not None
    }
    if args.no_bound:
        env |= {
            "SULTAN_WS_SHED_BYTES": SKY_HIGH,
            "SULTAN_WS_STALL_CLOSE_BYTES": SKY_HIGH,
            "SULTAN_WS_STALL_CLOSE_S": SKY_HIGH,
            "SULTAN_WS_SEND_BUFFER_BYTES": "0",
        }
    with production("fault_stalled", processes=1, env=env) as prod:
        failures, _ = asyncio.run(bounded(scenario(prod.topo, args), args.timeout_s))
    return verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
