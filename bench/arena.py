"""An arena tournament under load: bot clients join, are paired, race, are paired again.

    nice .venv/bin/python bench/arena.py --bots 150 --minutes 2

On the production shape (bench/faults/harness.py `production()`: nginx in front
of 2 Daphne processes, PostgreSQL, Redis), one account creates a tournament of
`--seats`-racer races and `--bots` guests join it. Each bot is a cheap protocol
client (websockets, as bench/racers.py): it watches the tournament socket,
and when its row names a new race it opens the race socket, plays a few
greedy moves (foundation plays first) and resigns, then waits to be paired
again. The tournament's races last `SULTAN_TOURNAMENT_RACE_S`; the arena loop
ticks in each process (games/tournaments/loop.py).

Printed:
- pairing wait: from a bot becoming free (joined, or its race's `end` frame)
  to the standings frame that names its next race, p50/p99 (aim p99 < 5 s);
- standings update: from a race's `end` frame to the standings frame that
  counts that race for the bot, p50/p99 (aim p99 < 1 s);
- CPU a race: the server's CPU seconds (Daphne, PostgreSQL, nginx, Redis) over
  the races finished;
- the bytes of standings the bots received (every frame, every bot), and how
  many times a bot met a gap in the chain of `rows` frames and asked for the
  whole table;
- the baseline, measured in the same run: the tournament socket's `ping` round
  trip through nginx and Daphne (no database), and the ratio of the standings
  update's p50 to it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.faults.harness import production  # noqa: E402
from bench.racers import pct  # noqa: E402
from bench.serverside import cpu_by_part  # noqa: E402
from tests.live import WebClient  # noqa: E402

MOVES_A_RACE = 6
# nginx holds an address to 100 sockets (deploy/nginx/nginx.conf): the bots come from
# many loopback addresses, this many (two sockets each at most) to one.
BOTS_AN_ADDRESS = 40


async def connect(client: WebClient, ws_base: str, path: str, address: str) -> Any:
    return await websockets.connect(
        ws_base + path,
        additional_headers=client.socket_headers(client.base),
        open_timeout=30,
        local_addr=(address, 0),
    )


@dataclass
class Tally:
    waits: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    races: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    standings_bytes: int = 0  # every standings frame every bot received
    gaps: int = 0  # `rows` frames a bot could not apply: it asked for the table


class Table:
    """The standings a bot holds, by the browser's rule (tournament-socket.js `Standings`):
    a `standings` frame replaces it, a `rows` frame applies to its `base`."""

    def __init__(self) -> None:
        self.v = -1
        self.rows: dict[int, dict[str, Any]] = {}

    def take(self, frame: dict[str, Any]) -> str:
        if frame["v"] <= self.v:
            return "seen"
        if frame["type"] == "standings":
            self.rows = {row["player"]: row for row in frame["rows"]}
        elif frame.get("base") == self.v:
            self.rows.update((row["player"], row) for row in frame["rows"])
        else:
            return "gap"
        self.v = frame["v"]
        return "changed"


def _greedy(legal: list[str]) -> str:
    plays = [m for m in legal if m not in ("draw", "redeal")]
    return plays[0] if plays else legal[0]


async def race(client: WebClient, ws_base: str, code: str, address: str) -> float:
    """Play a few moves of the race and resign; returns when its `end` frame came."""
    socket = await connect(client, ws_base, f"/ws/races/{code}/", address)
    try:
        snapshot = json.loads(await socket.recv())
        game = snapshot["you"]["game"]
        view = game["view"] if game else None
        played, n = 0, 0
        while view is not None and played < MOVES_A_RACE and view.get("legal"):
            n += 1
            await socket.send(
                json.dumps(
                    {
                        "type": "move",
                        "token": _greedy(view["legal"]),
                        "id": f"m{n}",
                        "seq": view["seq"],
                    }
                )
            )
            while True:
                frame = json.loads(await socket.recv())
                if frame["type"] == "ack" and frame["id"] == f"m{n}":
                    view = frame.get("view", view) | {"seq": frame["seq"]}
                    played += 1
                    break
                if frame["type"] == "reject" and frame["id"] == f"m{n}":
                    await asyncio.sleep(0.3)  # the countdown: try again
                    break
                if frame["type"] == "end":
                    return time.monotonic()
        await socket.send(
            json.dumps({"type": "resign", "id": "r", "seq": view["seq"] if view else 0})
        )
        while True:
            frame = json.loads(await socket.recv())
            if frame["type"] == "end":
                return time.monotonic()
    finally:
        await socket.close()


async def bot(
    name: str, base: str, ws_base: str, code: str, tally: Tally, stop: float, address: str
) -> None:
    client = WebClient(base)
    await asyncio.to_thread(client.post, f"/t/{code}/join", {"nickname": name})
    free_since = time.monotonic()
    ended_at: float | None = None
    counted = 0
    last_race: str | None = None
    standings = await connect(client, ws_base, f"/ws/tournaments/{code}/", address)
    me: int | None = None
    table, syncing = Table(), False
    try:
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(standings.recv(), timeout=5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame["type"] not in ("standings", "rows"):
                continue
            tally.standings_bytes += len(raw)
            taken = table.take(frame)
            if frame["type"] == "standings":
                syncing = False
            if taken == "gap" and not syncing:
                tally.gaps += 1
                syncing = True
                await standings.send(json.dumps({"type": "sync"}))
            if taken != "changed":
                continue
            if me is None:
                me = next((p for p, r in table.rows.items() if r["nickname"] == name), None)
            row = table.rows.get(me) if me is not None else None
            if row is None:
                continue
            if ended_at is not None and row["races"] > counted:
                tally.updates.append(time.monotonic() - ended_at)
                counted, ended_at = row["races"], None
            if row["race"] and row["race"] != last_race:
                last_race = row["race"]
                tally.waits.append(time.monotonic() - free_since)
                tally.races.add(row["race"])
                ended_at = await race(client, ws_base, row["race"], address)
                free_since = ended_at
    except Exception as error:  # a bench reports what broke, and goes on
        tally.errors.append(f"{name}: {error!r}")
    finally:
        await standings.close()


async def ping_round_trips(
    client: WebClient, ws_base: str, code: str, tally: Tally, stop: float
) -> None:
    socket = await client.connect(ws_base, f"/ws/tournaments/{code}/")
    await socket.recv()
    try:
        while time.monotonic() < stop:
            await asyncio.sleep(1.0)
            sent = time.monotonic()
            await socket.send(json.dumps({"type": "ping"}))
            while json.loads(await socket.recv())["type"] != "pong":
                pass
            tally.pings.append(time.monotonic() - sent)
    finally:
        await socket.close()


def _address(bot: int) -> str:
    return f"127.0.0.{2 + bot // BOTS_AN_ADDRESS}"


def _host(base: str) -> tuple[WebClient, str]:
    """An account, and its tournament: started now, `--minutes` plus a margin long."""
    host = WebClient(base)
    password = secrets.token_urlsafe(12)
    username = f"arena{secrets.token_hex(3)}"
    host.post(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": password},
    )
    return host, username


def _line(what: str, values: list[float], aim: str) -> None:
    p50, p99 = pct(values, 0.5), pct(values, 0.99)
    print(f"{what:<17} p50 {p50:6.3f} s  p99 {p99:6.3f} s  ({aim}; n={len(values)})")


async def main(args: argparse.Namespace) -> int:
    env = {
        "SULTAN_TOURNAMENT_RACE_S": "60",
        "SULTAN_TOURNAMENT_GATHER_S": "2",
        # No rest after a race: the wait measured is the pairing's, not the pause a
        # person is given to read their result (docs/tournaments.md, "Carried").
        "SULTAN_TOURNAMENT_REST_S": "0",
        # The per-address socket limits are the harness's (bench/faults/harness.py);
        # each bot reconnects for every race, beyond a person's connect rate.
        "SULTAN_WS_CONNECT_BURST": "100000",
        "SULTAN_WS_CONNECTS_PER_MIN": "1000000",
        "SULTAN_SOLVER_WARM": "0",
    }
    with production("arena", env=env) as prod:
        topo = prod.topo
        host, _ = await asyncio.to_thread(_host, topo.url)
        fields = {"name": "Bench arena", "variant": "sultan", "minutes": "30"}
        fields |= {"seats": str(args.seats), "starts_in": "0", "public": "on"}
        _, url = await asyncio.to_thread(host.post, "/tournaments/new", fields)
        code = url.rstrip("/").rsplit("/", 1)[-1]
        assert "/t/" in url, url
        tally = Tally()
        before = cpu_by_part(topo)
        stop = time.monotonic() + args.minutes * 60
        work = [
            bot(f"bot{i}", topo.url, topo.ws_url, code, tally, stop, _address(i))
            for i in range(args.bots)
        ]
        work.append(ping_round_trips(host, topo.ws_url, code, tally, stop))
        await asyncio.gather(*work, return_exceptions=True)
        after = cpu_by_part(topo)
        cpu = {part: after[part] - before[part] for part in after}
        # What the servers said of the failures (nginx's error log is in the same file).
        said = sorted(
            {
                line.split("] ", 1)[-1].split(", client:")[0]
                for line in prod.log.read_text(errors="replace").splitlines()
                if "[error]" in line or re.match(r"[\w.]+(Error|Exception)\b", line)
            }
        )
    finished = max(1, len(tally.updates) // max(1, args.seats))
    print(f"arena: {args.bots} bots, races of {args.seats}, {args.minutes} min, 2 Daphne processes")
    print(f"races seated: {len(tally.races)}; results counted: {len(tally.updates)}")
    _line("pairing wait", tally.waits, "aim p99 < 5 s")
    _line("standings update", tally.updates, "aim p99 < 1 s")
    total = sum(cpu.values())
    parts = ", ".join(f"{k} {v:.1f}" for k, v in cpu.items())
    print(f"CPU: {total:.1f} s ({parts}); {total / finished:.3f} s a race (~{finished} finished)")
    base = pct(tally.pings, 0.5)
    ratio = pct(tally.updates, 0.5) / base
    print(
        f"baseline: ping round trip p50 {base:.3f} s; standings update p50 / baseline {ratio:.1f}"
    )
    megabytes = tally.standings_bytes / 1e6
    print(f"standings frames received: {megabytes:.1f} MB in all; gaps synced: {tally.gaps}")
    if tally.errors:
        print(f"errors ({len(tally.errors)}): {tally.errors[:5]}")
    for line in said[:10]:
        print(f"server log: {line[:300]}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=150)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=2.0)
    raise SystemExit(asyncio.run(main(parser.parse_args())))
