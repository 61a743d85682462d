"""Scripted racers for the load and fault scripts: seated over HTTP, racing over real sockets.

A `Racer` keeps a ledger of every move it sent and every answer it got, follows
the race's version as docs/protocol.md says (a gap asks `sync`, answered from
the race's history), remembers the latest seq of each racer it heard of, and
when its socket drops it reconnects, resyncs from the snapshot and sends the
unanswered move again with the same id (the store answers a retry with the
first answer, `duplicate: true`). `audit` then compares ledgers with the
database (`bench/ledger.py`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter, deque
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402

from bench.pace import PROTOCOL_GAP_S, Pace  # noqa: E402
from games.engine import apply, legal_moves, new_game  # noqa: E402
from tests.live import WebClient  # noqa: E402

VARIANT = "sultan"
SEAT = 8
MOVE_TIMEOUT_S = 30.0


def recorded_game(seed: int, limit: int, variant: str = VARIANT) -> list[str]:
    """A greedy game on the deal: foundation plays first, then draw or redeal."""
    state, tokens = new_game(seed, variant), list[str]()
    while state.status == "playing" and len(tokens) < limit:
        moves = legal_moves(state)
        plays = [m for m in moves if m not in ("draw", "redeal")]
        token = plays[0] if plays else moves[0]
        state = apply(state, token)
        tokens.append(token)
    return tokens


def pct(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return float("nan")


# Ledger and figures --------------------------------------------------------


@dataclass
class Sent:
    move_id: str
    token: str
    expected_seq: int
    first_sent: float
    attempts: int = 1


@dataclass
class Tally:
    """What every racer of a run saw, for the figures."""

    ack_ms: list[float] = field(default_factory=list)
    ack_log: list[tuple[float, float]] = field(default_factory=list)  # (acked at, ms)
    progress_ms: list[float] = field(default_factory=list)
    resync_ms: list[float] = field(default_factory=list)
    sent: int = 0
    acked: int = 0
    recovered: int = 0  # stored before a drop, acknowledged only on the retry
    rejected: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    drops: int = 0
    syncs: int = 0  # syncs asked for on a version gap
    sync_snapshots: int = 0  # of which answered with a snapshot (the history could not)
    frames_in: int = 0  # frames the racers received
    failures: list[str] = field(default_factory=list)
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)
    progress_seen: set[tuple[int, int, int]] = field(default_factory=set)
    progress_log: list[tuple[float, int, int]] = field(default_factory=list)  # (at, to, about)

    def merge(self, other: Tally) -> None:
        self.ack_ms += other.ack_ms
        self.ack_log += other.ack_log
        self.progress_ms += other.progress_ms
        self.resync_ms += other.resync_ms
        self.sent += other.sent
        self.acked += other.acked
        self.recovered += other.recovered
        self.rejected += other.rejected
        self.errors += other.errors
        self.drops += other.drops
        self.syncs += other.syncs
        self.sync_snapshots += other.sync_snapshots
        self.frames_in += other.frames_in
        self.failures += other.failures


class Dropped(Exception):
    """The socket closed while a move waited for its answer."""


# The racer -----------------------------------------------------------------


class Racer:
    def __init__(
        self,
        web: WebClient,
        ws_base: str,
        code: str,
        tokens: list[str],
        tally: Tally,
        name: str = "",
        reconnect: bool = True,
    ) -> None:
        self.web, self.ws_base, self.code, self.tokens = web, ws_base, code, tokens
        self.tally, self.name, self.reconnect = tally, name or code, reconnect
        self.ws: Any = None
        self.player = 0
        self.game: int | None = None
        self.seq = 0
        self.seen = 0  # the last race version applied
        self.ahead: set[int] = set()  # versions heard past a gap
        self.syncing = False
        # How long a gap may stay open before asking for a sync (0: at once); as the
        # race page does, longer while gaps fill late by themselves: twice the slowest
        # recent fill, at most sync_patience_max_s (docs/protocol.md).
        self.sync_patience_s = 0.0
        self.sync_patience_max_s = 0.0
        self.fill_s = 0.0  # how long the recent gaps took to fill by themselves (decaying)
        self.gap_opened: dict[int, float] = {}  # a version heard past a gap -> when
        self.status = "lobby"
        self.starts_at = 0.0
        self.ledger: dict[str, Sent] = {}
        self.acked: dict[str, int] = {}  # move id -> seq
        self.acked_at: dict[str, float] = {}  # move id -> perf_counter at the ack
        self.duplicates: set[str] = set()  # acknowledged as already stored: recovered moves
        # player -> the highest seq of theirs a progress frame told this racer of
        self.heard: dict[int, int] = {}
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.ready = asyncio.Event()  # a snapshot arrived on the current socket
        self.started = asyncio.Event()
        self.ended = asyncio.Event()
        self.dropped_at: float | None = None
        self.closing = False
        self._reader: asyncio.Task[None] | None = None
        self._pong: asyncio.Future[int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.recent: deque[str] = deque(maxlen=12)

    # Connection ------------------------------------------------------------

    async def open(self, deadline_s: float = 30.0) -> None:
        """Connect, retrying until `deadline_s` (a server may be restarting)."""
        give_up = time.monotonic() + deadline_s
        delay = 0.05
        while True:
            try:
                self.ws = await self.web.connect(self.ws_base, f"/ws/races/{self.code}/")
                break
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
                if time.monotonic() > give_up:
                    raise
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)
        self._reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                self._on_message(json.loads(raw), time.perf_counter())
        except websockets.exceptions.ConnectionClosed:
            pass
        if self.closing or ws is not self.ws:
            return
        self.ready.clear()
        self.tally.drops += 1
        self.dropped_at = time.perf_counter()
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(Dropped())
        self.waiting.clear()
        if self.reconnect:
            self._background(self._reopen())

    async def _reopen(self) -> None:
        try:
            await self.open(deadline_s=60)
        except Exception as failure:
            self.tally.failures.append(f"{self.name}: could not reconnect: {failure!r}")

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)

    # What the server says --------------------------------------------------

    def _on_message(self, message: dict[str, Any], now: float) -> None:
        kind = message["type"]
        self.tally.frames_in += 1
        # The last frames, for the account of a failure.
        game = (message.get("you") or {}).get("game") or {}
        seq = message.get("seq", (game.get("view") or {}).get("seq"))
        self.recent.append(f"{kind}:v={message.get('v')}:seq={seq}:id={message.get('id')}")
        if kind in ("ack", "reject"):
            future = self.waiting.pop(message["id"], None)
            if future is not None and not future.done():
                future.set_result(message)
            return
        if kind == "snapshot":
            self._on_snapshot(message, now)
            return
        if kind == "synced":
            self.syncing = False
            return
        if kind == "pong":
            if self._pong is not None and not self._pong.done():
                self._pong.set_result(int(message["v"]))
            if message["v"] > self.seen:
                self._ask_sync()
            return
        if kind == "error":
            self.tally.errors[message["code"]] += 1
            return
        if kind in ("presence", "heartbeat"):
            return
        if kind == "progress":
            self._on_progress(message, now)
            for version in message["vs"]:
                self._apply_version(int(version))
            return
        if kind == "end":
            self.status = "finished"
            self.ended.set()
        if "v" in message:
            self._apply_version(int(message["v"]))

    def _on_progress(self, message: dict[str, Any], now: float) -> None:
        for racer in message["racers"]:
            player, seq = racer["player"], racer["seq"]
            if seq > self.heard.get(player, 0):
                self.heard[player] = seq
            if player == self.player:
                continue
            key = (self.player, player, seq)
            if key not in self.tally.progress_seen:
                self.tally.progress_seen.add(key)
                self.tally.progress_log.append((now, self.player, player))
                sent = self.tally.sent_at.get((player, seq))
                if sent is not None:
                    self.tally.progress_ms.append((now - sent) * 1000)

    def _on_snapshot(self, message: dict[str, Any], now: float) -> None:
        if self.syncing:
            self.tally.sync_snapshots += 1
        self.player = message["you"]["player"]
        self.seen = int(message["v"])
        self.ahead = {v for v in self.ahead if v > self.seen}
        self.gap_opened.clear()  # filled by the snapshot, not by themselves
        self.syncing = False
        self.status = message["race"]["status"]
        game = message["you"]["game"]
        if game is not None:
            self.game = game["id"]
            self.seq = game["view"]["seq"]
        if self.status == "running" and game is not None:
            # The server's clock and ours are the same machine's.
            self.starts_at = datetime.fromisoformat(message["race"]["starts_at"]).timestamp()
            self.started.set()
        if self.status == "finished":
            self.ended.set()
        if self.dropped_at is not None:
            self.tally.resync_ms.append((now - self.dropped_at) * 1000)
            self.dropped_at = None
        self.ready.set()

    def _apply_version(self, version: int) -> None:
        if version <= self.seen:
            return
        if version > self.seen + 1:
            # A gap: missed, or only overtaken (two processes, or two sockets of
            # one, publish in commit order only by chance).
            self.ahead.add(version)
            self.gap_opened.setdefault(version, time.perf_counter())
            if self.sync_patience_s:
                self._background(self._sync_unless_filled(version))
            else:
                self._ask_sync()
            return
        self.seen = version
        while self.seen + 1 in self.ahead:
            self.seen += 1
        self.ahead = {v for v in self.ahead if v > self.seen}
        now = time.perf_counter()
        for filled in [v for v in self.gap_opened if v <= self.seen]:
            self.fill_s = max(now - self.gap_opened.pop(filled), self.fill_s * 0.8)

    def _patience_s(self) -> float:
        ceiling = max(self.sync_patience_s, self.sync_patience_max_s)
        return min(ceiling, max(self.sync_patience_s, 2 * self.fill_s))

    async def _sync_unless_filled(self, version: int) -> None:
        opened = time.perf_counter()
        while self.seen < version:
            left = opened + self._patience_s() - time.perf_counter()
            if left <= 0:
                self._ask_sync()
                return
            await asyncio.sleep(left)

    def _ask_sync(self) -> None:
        if self.syncing or self.ws is None:
            return
        self.syncing = True
        self.tally.syncs += 1
        self._background(self._send({"type": "sync", "v": self.seen}))

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        # The loop keeps only weak references to tasks: hold them until done.
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.ws.send(json.dumps(message))
        except websockets.exceptions.ConnectionClosed:
            self.syncing = False

    # What the racer does ---------------------------------------------------

    async def send(self, message: dict[str, Any]) -> None:
        await asyncio.wait_for(self.ready.wait(), 60)
        await self._send(message)

    async def move(self, token: str, move_id: str) -> dict[str, Any]:
        """Send a move and return its final answer, across drops and refusals.

        A retry keeps the id and the expected seq of the first attempt: if the
        first was stored, the retry gets its answer back, marked duplicate.
        """
        sent = self.ledger.get(move_id)
        if sent is None:
            sent = Sent(move_id, token, self.seq, time.perf_counter(), attempts=0)
            self.ledger[move_id] = sent
            self.tally.sent += 1
            self.tally.sent_at.setdefault((self.player, self.seq + 1), sent.first_sent)
        give_up = time.monotonic() + MOVE_TIMEOUT_S
        while time.monotonic() < give_up:
            await asyncio.wait_for(self.ready.wait(), max(0.1, give_up - time.monotonic()))
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting[move_id] = future
            sent.attempts += 1
            frame = {"type": "move", "token": token, "id": move_id, "seq": sent.expected_seq}
            try:
                await self.ws.send(json.dumps(frame))
                answer = await asyncio.wait_for(future, max(0.1, give_up - time.monotonic()))
            except (Dropped, websockets.exceptions.ConnectionClosed):
                self.waiting.pop(move_id, None)
                continue
            if answer["type"] == "reject" and answer["code"] == "unavailable":
                self.tally.rejected["unavailable"] += 1
                await asyncio.sleep(0.2)
                continue
            return answer
        raise TimeoutError(f"{self.name}: no answer to {move_id} within {MOVE_TIMEOUT_S:.0f} s")

    async def play(self, pace: Pace, stop: asyncio.Event | None = None) -> None:
        """Play the recorded game from the start of the race; stop early when `stop` is set."""
        await self.started.wait()
        await asyncio.sleep(max(0.0, self.starts_at - time.time()) + 0.05)
        for i, token in enumerate(self.tokens):
            if stop is not None and stop.is_set():
                return
            if self.ended.is_set():
                return
            move_id = f"{self.player}-{i}"
            began = time.perf_counter()
            try:
                answer = await self.move(token, move_id)
            except TimeoutError as failure:
                last = " ".join(self.recent)
                self.tally.failures.append(
                    f"{self.name}: {move_id} unanswered ({failure!r}); last frames: {last}"
                )
                return
            sent = self.ledger[move_id]
            if answer["type"] == "ack":
                now = time.perf_counter()
                self.tally.acked += 1
                self.tally.ack_ms.append((now - sent.first_sent) * 1000)
                self.tally.ack_log.append((now, (now - sent.first_sent) * 1000))
                self.acked_at[move_id] = now
                if answer["duplicate"]:
                    self.tally.recovered += 1
                    self.duplicates.add(move_id)
                self.acked[move_id] = answer["seq"]
                self.seq = answer["seq"]
            else:
                self.tally.rejected[answer["code"]] += 1
                if answer["code"] not in ("finished", "too_late"):
                    frames = list(self.recent)
                    self.tally.failures.append(
                        f"{self.name}: {move_id} refused: {answer}; last frames: {frames}"
                    )
                return
            # Never faster than the protocol allows (docs/protocol.md): flat out
            # is a move every 1/30 s at most, or the server drops it as a flood.
            await asyncio.sleep(max(pace.gap(), PROTOCOL_GAP_S - (time.perf_counter() - began)))

    async def current_version(self, timeout_s: float = 10) -> int:
        """Ask with a ping; a behind client resyncs on the pong (docs/protocol.md)."""
        self._pong = asyncio.get_running_loop().create_future()
        await self.send({"type": "ping"})
        return await asyncio.wait_for(self._pong, timeout_s)


# Seating -------------------------------------------------------------------


@dataclass
class RaceSeats:
    code: str
    deal: int
    clients: list[WebClient]


def seat_race(base: str, deal: int, seats: int = SEAT, time_limit_min: int = 30) -> RaceSeats:
    """A race on an open deal, created by a host, joined by `seats - 1` guests, over HTTP."""
    host = WebClient(base)
    _, url = host.post(
        "/races/new",
        {
            "nickname": f"host{deal}",
            "time_limit": time_limit_min,
            "seats": seats,
            "deal": deal,
            "variant": VARIANT,
        },
    )
    code = url.rstrip("/").rsplit("/", 1)[1]
    clients = [host]
    for s in range(1, seats):
        guest = WebClient(base)
        guest.post(f"/r/{code}/join", {"nickname": f"r{deal}-{s}"})
        clients.append(guest)
    return RaceSeats(code, deal, clients)


def seat_races(base: str, deals: Iterable[int], seats: int = SEAT) -> list[RaceSeats]:
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda d: seat_race(base, d, seats), deals))


async def start_races(crews: list[list[Racer]], timeout_s: float = 30) -> None:
    """Every racer connected, each host starts; back when every racer holds its game."""
    for crew in crews:
        for racer in crew:
            await racer.open()
    await asyncio.gather(*(r.ready.wait() for crew in crews for r in crew))
    for crew in crews:
        await crew[0].send({"type": "start"})
    await asyncio.wait_for(
        asyncio.gather(*(r.started.wait() for crew in crews for r in crew)), timeout_s
    )


def latency_line(label: str, values: Sequence[float]) -> str:
    return (
        f"  {label:<22} p50 {pct(values, 0.5):7.1f} ms   p99 {pct(values, 0.99):7.1f} ms"
        f"   ({len(values)} samples)"
    )
