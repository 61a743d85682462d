"""A soak: racers at a human pace for M minutes, race after race, sampled every minute.

`bench/race_load.py --minutes M` runs it on the same production topology as its
rounds. Each race of 8 is a lane: seated over HTTP on a new deal, its racers
connect, the host starts, each racer plays its recorded game (`--moves` at
most) and resigns if its game is still on, so the race ends as people's do;
then the lane seats its next race, until M minutes have passed. Lanes enter
spread over one race's length and drift apart with the pace, so the load is
continuous rather than rounds that all start and stop together. When the time
is up no race starts; those in play finish (the drain).

A sampler in the parent prints a line every `--sample-s` (60): the minute, the
moves acknowledged so far and per second since the last line, each Daphne
process's RSS, Redis (bench/serverside.py), and the outbox: race events in all,
those not yet published and the oldest of them (bench/ledger.py). At the end:
the audit of every race against the database, and the verdict: each process's
memory growth from minute 5 (or half the run, if shorter) to the end of the
load; a failure if a move was lost, duplicated or stored unacknowledged, or if
the outbox fell behind (a row unpublished for `STALE_S` during the load, or any
left once the load stopped).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import queue
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ledger import Outbox, RacerRecord, audit, outbox, record_of, stored_moves  # noqa: E402
from bench.pace import pace_for  # noqa: E402
from bench.racers import SEAT, Racer, Tally, latency_line, recorded_game, seat_race  # noqa: E402
from bench.serverside import Memory, memory  # noqa: E402
from deploy.serve_prod import Topology  # noqa: E402

# The sweep resends a row left unpublished for 2 s, every second
# (games/races/publisher.py): one unpublished this long means the outbox is behind.
STALE_S = 10.0
DRAIN_S = 300.0  # the races in play when the time is up finish within this
SETTLE_S = 30.0  # after the load, the outbox empties within this
HEARD_S = 5.0  # a race's last progress frames reach its racers within this
BASELINE_MIN = 5.0


@dataclass
class Sample:
    elapsed_s: float
    acked: int
    per_s: float
    memory: Memory
    outbox: Outbox

    def line(self) -> str:
        return (
            f"  {self.elapsed_s / 60:5.1f} min {self.acked:>9} acked {self.per_s:6.1f} moves/s"
            f"  {self.memory.line()}; {self.outbox.line()}"
        )


@dataclass
class ClientSoak:
    tally: Tally
    racers: list[RacerRecord]
    races: int = 0
    ended: int = 0  # races whose end reached every racer


def _heard_all(racers: list[Racer]) -> bool:
    """Every racer heard every other's last acknowledged seq."""
    return all(
        r.heard.get(other.player, 0) >= other.seq
        for r in racers
        for other in racers
        if other is not r
    )


async def _seat(
    base: str, ws_base: str, deal: int, args: argparse.Namespace, tally: Tally
) -> list[Racer]:
    race = await asyncio.to_thread(seat_race, base, deal)
    tokens = recorded_game(deal, args.moves)
    if len(tokens) == args.moves:  # the game may still be on: give it up, as people do
        tokens.append("resign")
    racers = [
        Racer(c, ws_base, race.code, list(tokens), tally, f"{race.code}/{i}")
        for i, c in enumerate(race.clients)
    ]
    for racer in racers:
        racer.sync_patience_s = args.sync_patience_ms / 1000
        racer.sync_patience_max_s = args.sync_patience_max_ms / 1000
    return racers


async def _race(racers: list[Racer], args: argparse.Namespace, rng: random.Random) -> None:
    """Connected, started, played to the end; closed whatever happens."""
    playing: asyncio.Future[list[None]] | None = None
    try:
        for racer in racers:
            await racer.open()
        await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in racers)), 60)
        pace = [pace_for(args.pace_ms, args.median_s, random.Random(rng.random())) for _ in racers]
        playing = asyncio.gather(*(r.play(p) for r, p in zip(racers, pace, strict=True)))
        await racers[0].send({"type": "start"})
        await asyncio.wait_for(asyncio.gather(*(r.started.wait() for r in racers)), 60)
        await playing
        give_up = time.monotonic() + HEARD_S
        while time.monotonic() < give_up and not (
            _heard_all(racers) and all(r.ended.is_set() for r in racers)
        ):
            await asyncio.sleep(0.05)
    finally:
        if playing is not None:
            playing.cancel()  # a race that failed to start leaves its racers waiting
        for racer in racers:
            await racer.close()


async def _lane(
    base: str,
    ws_base: str,
    deals: Iterator[int],
    args: argparse.Namespace,
    enter_s: float,
    deadline: float,
    done: ClientSoak,
    live: dict[int, Tally],
    rng: random.Random,
) -> None:
    await asyncio.sleep(enter_s)
    while time.time() < deadline:
        tally = Tally()
        live[id(tally)] = tally  # counted while the race runs (a Tally is unhashable)
        racers: list[Racer] = []
        try:
            racers = await _seat(base, ws_base, next(deals), args, tally)
            await _race(racers, args, rng)
        except Exception as failure:
            # One race's failure is a finding, not the end of a half-hour run.
            code = racers[0].code if racers else "?"
            tally.failures.append(f"race {code}: {failure!r}")
        del live[id(tally)]
        # Only the figures: the per-move logs of a race are large, and used only in it.
        done.tally.merge(tally)
        done.racers += [record_of(r) for r in racers]
        done.races += 1
        done.ended += bool(racers) and all(r.ended.is_set() for r in racers)


async def _client(
    base: str, ws_base: str, index: int, args: argparse.Namespace, deadline: float, acked: Any
) -> ClientSoak:
    """One client process's lanes: every `clients`-th of them, on deals of its own."""
    rng = random.Random(args.seed + index)
    lanes = args.racers // SEAT
    mine = range(index, lanes, args.clients)
    deals = itertools.count(1000 + index, args.clients)
    gap_s = args.pace_ms / 1000 if args.pace_ms is not None else args.median_s
    race_s = args.moves * gap_s  # about one race's length: the lanes enter over it
    done = ClientSoak(Tally(), [])
    live: dict[int, Tally] = {}
    lanes_done = asyncio.gather(
        *(
            _lane(base, ws_base, deals, args, lane / lanes * race_s, deadline, done, live, rng)
            for lane in mine
        )
    )
    while not lanes_done.done():
        acked.value = done.tally.acked + sum(t.acked for t in live.values())
        await asyncio.wait([lanes_done], timeout=1.0)
    await lanes_done  # its failure, if any
    acked.value = done.tally.acked
    done.tally.ack_log.clear()  # the rounds' steady-state figure, not the soak's
    return done


def _client_process(
    base: str,
    ws_base: str,
    index: int,
    args: argparse.Namespace,
    deadline: float,
    acked: Any,
    out: Any,
) -> None:
    try:
        out.put(asyncio.run(_client(base, ws_base, index, args, deadline, acked)))
    except BaseException as failure:
        out.put(failure)
        raise


def _sample(topo: Topology, began: float, acked: int, last: Sample | None) -> Sample:
    now = time.time() - began
    per_s = 0.0
    if last is not None and now > last.elapsed_s:
        per_s = (acked - last.acked) / (now - last.elapsed_s)
    return Sample(now, acked, per_s, memory(topo), outbox(topo.env))


def soak(topo: Topology, args: argparse.Namespace) -> list[str]:
    """Run the soak, print its lines and verdict; the failures (none: it held)."""
    context = multiprocessing.get_context("fork")
    clients = min(args.clients, args.racers // SEAT)
    counters = [context.Value("q", 0) for _ in range(clients)]
    out = context.Queue()
    began = time.time()
    deadline = began + args.minutes * 60
    pace = (
        f"{args.pace_ms:g} ms" if args.pace_ms is not None else f"human (median {args.median_s} s)"
    )
    print(
        f"soak: {args.racers} racers in races of {SEAT} ({args.racers // SEAT} lanes), race"
        f" after race for {args.minutes:g} min, {len(topo.ports)} Daphne process(es) behind"
        f" nginx, pace {pace}, {args.moves} moves a racer at most then resign,"
        f" {clients} client process(es); a line every {args.sample_s:g} s",
        flush=True,
    )
    workers = [
        context.Process(
            target=_client_process,
            args=(topo.url, topo.ws_url, i, args, deadline, counters[i], out),
        )
        for i in range(clients)
    ]
    # Minute 0: the servers before the load, the origin of the first minute's rate.
    samples = [_sample(topo, began, 0, None)]
    print(samples[0].line(), flush=True)
    for worker in workers:
        worker.start()
    results: list[ClientSoak] = []
    next_at = began + args.sample_s
    while len(results) < clients:
        if time.time() > deadline + DRAIN_S:
            raise RuntimeError(f"the races in play did not finish within {DRAIN_S:.0f} s")
        if time.time() >= next_at:
            acked = sum(c.value for c in counters)
            samples.append(_sample(topo, began, acked, samples[-1]))
            print(samples[-1].line(), flush=True)
            next_at += args.sample_s
            continue
        try:
            result = out.get(timeout=max(0.05, next_at - time.time()))
        except queue.Empty:
            if not any(w.is_alive() for w in workers) and out.empty():
                raise RuntimeError("a client process died without an answer") from None
            continue
        if isinstance(result, BaseException):
            raise RuntimeError("a client process failed") from result
        results.append(result)
    for worker in workers:
        worker.join(30)
    load_end = time.time() - began
    settle_by = time.monotonic() + SETTLE_S
    while outbox(topo.env).unpublished and time.monotonic() < settle_by:
        time.sleep(0.2)
    after = _sample(topo, began, sum(r.tally.acked for r in results), samples[-1])
    print(f"after the load ({load_end / 60:.1f} min, drained and settled):")
    print(after.line())
    return _verdict(topo, args, samples, after, results)


def _verdict(
    topo: Topology,
    args: argparse.Namespace,
    samples: list[Sample],
    after: Sample,
    results: list[ClientSoak],
) -> list[str]:
    tally = Tally()
    for result in results:
        tally.merge(result.tally)
    records = [r for result in results for r in result.racers]
    check = audit(records, stored_moves(topo.env, [r.game for r in records if r.game]))
    final_rejects = sum(tally.rejected.values()) - tally.rejected["unavailable"]
    lost = tally.sent - tally.acked - final_rejects
    races = sum(r.races for r in results)
    print(f"  races run              {races:>8}  ({sum(r.ended for r in results)} ended)")
    print(f"  moves acknowledged     {tally.acked:>8}")
    print(latency_line("ack latency", tally.ack_ms))
    print(latency_line("progress delivery", tally.progress_ms))
    print(f"  lost (sent, no answer) {lost:>8}")
    print(f"  refused                {final_rejects:>8}  {dict(tally.rejected) or ''}")
    print(f"  socket drops           {tally.drops:>8}")
    print("\n".join(check.lines()))
    failures: list[str] = []
    if lost or not check.ok or check.stored != check.acked or tally.failures:
        failures.append("lost, duplicated, unstored or stored-unacknowledged moves")
        failures += tally.failures[:10]
    if not check.announced:
        failures.append("stored moves never announced")
    # The load's own samples: the drain's, with fewer races in play, would flatter the end.
    load = [s for s in samples if s.elapsed_s <= args.minutes * 60 + 1] or samples
    if load:
        baseline_s = min(BASELINE_MIN * 60, args.minutes * 60 / 2)
        first = next((s for s in load if s.elapsed_s >= baseline_s), load[0])
        last = load[-1]
        print(f"memory from minute {first.elapsed_s / 60:.1f} to {last.elapsed_s / 60:.1f}:")
        pairs = zip(first.memory.daphne_mb, last.memory.daphne_mb, strict=True)
        for n, (a, b) in enumerate(pairs, start=1):
            print(f"  Daphne {n}  {a:7.1f} -> {b:7.1f} MB  {b - a:+7.1f} MB  {(b - a) / a:+6.1%}")
        if first.memory.redis_mb is not None and last.memory.redis_mb is not None:
            a, b = first.memory.redis_mb, last.memory.redis_mb
            print(f"  Redis     {a:7.1f} -> {b:7.1f} MB  {b - a:+7.1f} MB  (the whole server's)")
        most = max(s.outbox.unpublished for s in load)
        oldest = max(s.outbox.oldest_unpublished_s for s in load)
        print(
            f"outbox: at most {most} unpublished at a sample during the load, the oldest"
            f" {oldest:.1f} s; {after.outbox.unpublished} after it; {after.outbox.rows} rows kept"
        )
        if oldest > STALE_S:
            failures.append(f"the outbox fell behind: a row unpublished for {oldest:.0f} s")
    if after.outbox.unpublished:
        failures.append(f"{after.outbox.unpublished} outbox rows unpublished after the load")
    return failures
