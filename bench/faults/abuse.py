"""Fault: abusive clients next to honest racers.

Honest racers race at a human pace through nginx for a quiet phase, then go on
while abusers attack for as long:

- flooders: spectators sending moves as fast as they can (expect one `flood`
  error, then the socket closed with 4008), reconnecting and doing it again;
- oversized frames: 64 KiB and 2 MiB frames (expect `too_big`, close 4009; a
  2 MiB one may be cut off while the client is still sending it);
- garbage: binary frames, broken and deeply nested JSON, unknown types, wrong
  field types, at a rate under the limit (expect errors, the socket stays open);
- a cross-origin socket: Origin http://evil.example (expect the handshake refused);
- someone else's game: a racer of another race naming an honest racer's game,
  and sockets with no session at all (expect `forbidden`);
- a socket for a race that does not exist (expect it refused).

Promises checked: every abuse gets its answer; the server stays up (both
processes alive, /healthz 200); the honest racers' acknowledgement p99 under
attack stays within max(3 x quiet p99, quiet p99 + 250 ms) (unless
`--no-latency-bound`, as the test suite runs it); nothing is written
(no move in the intruder's game, and the honest games hold only the honest
racers' moves).

    .venv/bin/python bench/faults/abuse.py --phase-s 8
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.faults.harness import (  # noqa: E402
    bounded,
    crews,
    fault_arguments,
    latency_bound_argument,
    production,
    verdict,
)
from bench.ledger import audit, stored_moves  # noqa: E402
from bench.pace import HumanPace  # noqa: E402
from bench.racers import Racer, latency_line, pct  # noqa: E402
from deploy.serve_prod import Topology, get_status  # noqa: E402
from tests.live import WebClient  # noqa: E402

LATENCY_FACTOR = 3.0
LATENCY_SLACK_MS = 250.0
EVIL_ORIGIN = "http://evil.example"

GARBAGE: list[str | bytes] = [
    b"\x00\x01\x02binary",
    "{not json",
    "[" * 2000 + "]" * 2000,  # under 4 KiB, nested deeper than the parser's recursion limit
    json.dumps({"type": "teleport"}),
    json.dumps({"type": "move", "token": 7, "id": "x", "seq": 0}),
    json.dumps({"type": "move", "token": "draw", "id": "", "seq": 0}),
    json.dumps({"type": "move", "token": "draw", "id": "x", "seq": 2**80}),
    json.dumps({"type": "move", "token": "draw", "id": "x" * 500, "seq": 0}),
    json.dumps({"type": "ready", "ready": "yes"}),
    json.dumps({"type": "sync", "v": -1}),
    json.dumps([1, 2, 3]),
    "null",
    '{"type": "move", "token": "draw", "id": "x", "seq": NaN}',
]


class Outcomes:
    """What the abusers met, by kind."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, what: str) -> None:
        self.counts[what] += 1


def _headers(web: WebClient, origin: str | None = None) -> dict[str, str]:
    return web.socket_headers(origin or web.base)


async def _connect(ws_base: str, path: str, headers: dict[str, str]) -> Any:
    return await websockets.connect(
        ws_base + path, additional_headers=headers, open_timeout=10, max_size=2**22
    )


async def _drain_until_closed(ws: Any, outcomes: Outcomes, timeout_s: float = 10) -> int | None:
    """Read until the server closes; count the error codes; the close code."""
    try:
        async with asyncio.timeout(timeout_s):
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "error":
                    outcomes.add(f"error:{message['code']}")
                elif message["type"] == "reject":
                    outcomes.add(f"reject:{message['code']}")
    except websockets.exceptions.ConnectionClosed:
        pass
    except TimeoutError:
        return None
    code = ws.close_code
    return int(code) if code is not None else None


async def _reconnect(topo: Topology, web: WebClient, code: str, who: str, out: Outcomes) -> Any:
    """A socket, or None when the server refuses this client's reconnect loop."""
    try:
        return await _connect(topo.ws_url, f"/ws/races/{code}/", _headers(web))
    except websockets.exceptions.InvalidStatus as refused:
        out.add(f"{who} reconnect refused:{refused.response.status_code}")
        await asyncio.sleep(0.05)
        return None


async def flooder(topo: Topology, web: WebClient, code: str, until: float, out: Outcomes) -> None:
    frame = json.dumps({"type": "move", "token": "draw", "id": "flood", "seq": 0})
    while time.perf_counter() < until:
        ws = await _reconnect(topo, web, code, "flood", out)
        if ws is None:
            continue
        try:
            for _ in range(300):
                await ws.send(frame)
        except websockets.exceptions.ConnectionClosed:
            pass
        out.add(f"flood closed:{await _drain_until_closed(ws, out)}")


async def oversized(topo: Topology, web: WebClient, code: str, until: float, out: Outcomes) -> None:
    sizes = [64 * 1024, 2 * 1024 * 1024]
    i = 0
    while time.perf_counter() < until:
        ws = await _reconnect(topo, web, code, "oversized", out)
        if ws is None:
            continue
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await ws.send(json.dumps({"type": "ping", "pad": "x" * sizes[i % len(sizes)]}))
        out.add(f"oversized closed:{await _drain_until_closed(ws, out)}")
        i += 1
        await asyncio.sleep(0.2)


async def garbage(topo: Topology, web: WebClient, code: str, until: float, out: Outcomes) -> None:
    ws = await _connect(topo.ws_url, f"/ws/races/{code}/", _headers(web))
    answers = 0
    try:
        while time.perf_counter() < until:
            for frame in GARBAGE:
                await ws.send(frame)
                await asyncio.sleep(0.06)  # under the rate limit: answered, not dropped
            await ws.send(json.dumps({"type": "ping"}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == "pong":
                    break
                if message["type"] == "error":
                    out.add(f"garbage error:{message['code']}")
                    answers += 1
        out.add("garbage socket still open")
    finally:
        await ws.close()


async def cross_origin(
    topo: Topology, web: WebClient, code: str, until: float, out: Outcomes
) -> None:
    while time.perf_counter() < until:
        try:
            ws = await _connect(topo.ws_url, f"/ws/races/{code}/", _headers(web, EVIL_ORIGIN))
        except websockets.exceptions.InvalidStatus as refused:
            out.add(f"cross-origin refused:{refused.response.status_code}")
        else:
            out.add("cross-origin ACCEPTED")
            await ws.close()
        await asyncio.sleep(0.25)


async def other_game(
    topo: Topology,
    intruder: Racer,
    victims: list[int],
    strangers: list[WebClient],
    code: str,
    until: float,
    out: Outcomes,
) -> None:
    """A racer of another race names honest racers' games, from its own race's socket and
    from the honest race's; strangers (a session never seated, no session) try to move."""
    sockets = {
        "intruder (own race)": await _connect(
            topo.ws_url, f"/ws/races/{intruder.code}/", _headers(intruder.web)
        ),
        "intruder (their race)": await _connect(
            topo.ws_url, f"/ws/races/{code}/", _headers(intruder.web)
        ),
        "stranger": await _connect(topo.ws_url, f"/ws/races/{code}/", _headers(strangers[0])),
        "no session": await _connect(topo.ws_url, f"/ws/races/{code}/", {"Origin": topo.url}),
    }
    n = 0
    try:
        while time.perf_counter() < until:
            n += 1
            victim = victims[n % len(victims)]
            for who, ws in sockets.items():
                frame = {"type": "move", "token": "draw", "id": f"x{n}", "seq": 0, "game": victim}
                await ws.send(json.dumps(frame))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] in ("ack", "reject"):
                        out.add(f"{who} {message['type']}:{message.get('code', '')}")
                        break
            await asyncio.sleep(0.3)
    finally:
        for ws in sockets.values():
            await ws.close()
    try:
        ws = await _connect(topo.ws_url, "/ws/races/zzzz-zzzz/", {"Origin": topo.url})
        await _drain_until_closed(ws, out, 5)
        out.add(f"unknown race closed:{ws.close_code}")
    except websockets.exceptions.InvalidStatus as refused:
        out.add(f"unknown race refused:{refused.response.status_code}")


def window(log: list[tuple[float, float]], start: float, end: float) -> list[float]:
    return [ms for at, ms in log if start <= at < end]


async def scenario(topo: Topology, args: argparse.Namespace) -> list[str]:
    rng = random.Random(args.seed)
    # Two honest races, and one more whose racers include the intruder.
    teams, tally = await crews(
        topo.url, topo.ws_url, races=args.races + 1, seats=args.seats, moves=400
    )
    honest_teams, intruders = teams[:-1], teams[-1]
    honest = [r for team in honest_teams for r in team]
    intruder = intruders[0]
    for racer in intruders:
        await racer.close()  # the intruder attacks through raw sockets of its own
    code = honest_teams[0][0].code
    spectators = [WebClient(topo.url) for _ in range(args.flooders + 3)]
    for web in spectators:
        web.get("/")  # a session and a CSRF cookie, never a seat

    stop = asyncio.Event()
    play = asyncio.gather(*(r.play(HumanPace(random.Random(rng.random())), stop) for r in honest))
    quiet_start = time.perf_counter()
    await asyncio.sleep(args.phase_s)
    abuse_start = time.perf_counter()
    until = abuse_start + args.phase_s
    outcomes = Outcomes()
    victims = [r.game for r in honest if r.game is not None]
    attacks = [
        *(flooder(topo, spectators[i], code, until, outcomes) for i in range(args.flooders)),
        oversized(topo, spectators[-3], code, until, outcomes),
        garbage(topo, spectators[-2], code, until, outcomes),
        cross_origin(topo, spectators[-1], code, until, outcomes),
        other_game(topo, intruder, victims, spectators[-1:], code, until, outcomes),
    ]
    results = await asyncio.gather(*attacks, return_exceptions=True)
    abuse_end = time.perf_counter()
    await asyncio.sleep(1.0)
    stop.set()
    await play

    alive = all(p.poll() is None for p in topo.daphnes.values())
    health = await asyncio.to_thread(get_status, f"{topo.url}/healthz", 5.0, topo.host)
    games = [r.game for r in honest if r.game] + [r.game for r in intruders if r.game]
    rows = await asyncio.to_thread(stored_moves, topo.env, games)
    intruder_rows = [row for row in rows if row.game in {r.game for r in intruders}]
    report = audit(honest, rows)
    for r in honest:
        await r.close()

    quiet = window(tally.ack_log, quiet_start + 1.0, abuse_start)
    attacked = window(tally.ack_log, abuse_start, abuse_end)
    bound = max(LATENCY_FACTOR * pct(quiet, 0.99), pct(quiet, 0.99) + LATENCY_SLACK_MS)
    counts = outcomes.counts
    failures = list(tally.failures)
    failures += [f"an attack failed: {r!r}" for r in results if isinstance(r, BaseException)]
    if not alive:
        failures.append("a Daphne process died")
    if health != 200:
        failures.append(f"/healthz answered {health} after the attack")
    if args.latency_bound and pct(attacked, 0.99) > bound:
        failures.append(f"honest ack p99 {pct(attacked, 0.99):.0f} ms above {bound:.0f} ms")
    if intruder_rows or not report.ok:
        failures.append("an abuser's frame was written")
    expected = {
        "flood closed:4008": "flooders closed with 4008",
        "error:flood": "flood errors",
        "flood reconnect refused:403": "a flooder's reconnect loop refused",
        "oversized closed:4009": "oversized frames closed with 4009",
        "error:too_big": "too_big errors",
        "garbage error:bad_frame": "binary frames refused",
        "garbage error:bad_json": "bad JSON refused",
        "garbage error:unknown_type": "unknown types refused",
        "garbage error:bad_message": "bad fields refused",
        "garbage socket still open": "the garbage socket stayed open",
        "cross-origin refused:403": "cross-origin handshakes refused",
        "intruder (own race) reject:forbidden": "moves naming another's game refused",
        "intruder (their race) reject:forbidden": "an outsider's moves refused",
        "stranger reject:forbidden": "a stranger's moves refused",
        "no session reject:forbidden": "moves without a session refused",
    }
    failures += [f"never saw: {what}" for key, what in expected.items() if not counts[key]]
    if counts["cross-origin ACCEPTED"]:
        failures.append("a cross-origin socket was accepted")
    if not (counts["unknown race closed:4404"] or counts["unknown race refused:403"]):
        failures.append("a socket for an unknown race was not refused")
    if any(key.endswith("ack:") for key in counts):
        failures.append("a move on someone else's game was acknowledged")

    print(
        f"abuse: {len(honest)} honest racers in races of {args.seats} through nginx over"
        f" {len(topo.ports)} Daphne processes; {args.phase_s:.0f} s quiet, {args.phase_s:.0f} s"
        f" under attack by {args.flooders} flooders and 5 other abusers"
    )
    print(latency_line("honest ack, quiet", quiet))
    print(latency_line("honest ack, attacked", attacked))
    print(f"  bound on the attacked p99: {bound:.0f} ms")
    print(f"  processes alive {alive}, /healthz {health}")
    print("  what the abusers met:")
    for key, n in sorted(counts.items()):
        print(f"    {key:<36} {n:>6}")
    print(f"  moves stored in the intruder's game {len(intruder_rows)}")
    print("\n".join(report.lines()))
    return failures


def main() -> int:
    parser = fault_arguments(__doc__, races=2, seed=17, timeout_s=180.0)
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--phase-s", type=float, default=8.0, help="quiet, then attacked")
    latency_bound_argument(parser, "attack")
    args = parser.parse_args()
    with production("fault_abuse") as prod:
        failures = asyncio.run(bounded(scenario(prod.topo, args), args.timeout_s))
    return verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
