"""Scripted move timings for calibrating games/moderation/anticheat.py: people and programs.

Times are what the server records: each move's acceptance. A player (person or
program) waits for the acknowledgement of a move, takes its own time, and sends
the next; the network and the server add their delays both ways, with now and
then a slow answer (a loaded server). So a gap as the server sees it is:

    down(previous ack) + think + up(next move)

Every family takes a seeded `random.Random`: the sets are the same on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

Think = Callable[[random.Random], "ThinkStream"]


@dataclass
class Network:
    """One-way delays: log-normal around `median_s`, with a slow answer now and then."""

    median_s: float = 0.015
    sigma: float = 0.6
    spike_p: float = 0.02
    spike_s: tuple[float, float] = (0.05, 0.4)

    def delay(self, rng: random.Random) -> float:
        base = rng.lognormvariate(0, self.sigma) * self.median_s
        if rng.random() < self.spike_p:
            base += rng.uniform(*self.spike_s)
        return base


class ThinkStream:
    """The player's own time before each move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def next(self) -> float:
        raise NotImplementedError


def acceptance_times(
    stream: ThinkStream, moves: int, rng: random.Random, network: Network | None = None
) -> list[float]:
    net = network or Network()
    times, t = [], 0.0
    for _ in range(moves):
        t += stream.next() + net.delay(rng)  # think, then the move travels up
        times.append(t)
        t += net.delay(rng)  # the ack travels down
    return times


# People -------------------------------------------------------------------


class Person(ThinkStream):
    """Log-normal thinking; runs of quick obvious plays; runs of draws through the stock
    at a steady tempo (each drawn card still needs a look: a choice's reaction time
    varies by 15 to 25%, far more than a tap's rhythm); pauses; the odd double tap."""

    median_s = 1.0
    sigma = 0.7
    burst_p, burst_len, burst_median_s, burst_sigma = 0.08, (3, 10), 0.3, 0.35
    draws_p, draws_len, draws_mean_s, draws_cv = 0.04, (5, 20), (0.3, 0.5), 0.2
    pause_p, pause_s = 0.03, (3.0, 30.0)
    double_tap_p = 0.01

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.queue: list[float] = []

    def next(self) -> float:
        if self.queue:
            return self.queue.pop()
        r = self.rng
        roll = r.random()
        if roll < self.burst_p:
            n = r.randint(*self.burst_len)
            self.queue = [
                r.lognormvariate(0, self.burst_sigma) * self.burst_median_s for _ in range(n)
            ]
            return self.queue.pop()
        roll -= self.burst_p
        if roll < self.draws_p:
            n = r.randint(*self.draws_len)
            mean = r.uniform(*self.draws_mean_s)
            self.queue = [max(0.12, r.gauss(mean, mean * self.draws_cv)) for _ in range(n)]
            return self.queue.pop()
        roll -= self.draws_p
        if roll < self.pause_p:
            return r.uniform(*self.pause_s)
        roll -= self.pause_p
        if roll < self.double_tap_p:
            return r.uniform(0.05, 0.1)
        return r.lognormvariate(0, self.sigma) * self.median_s


class CasualPerson(Person):
    median_s, sigma = 1.6, 0.8
    pause_p = 0.06
    pause_s = (5.0, 40.0)


class QuickPerson(Person):
    median_s, sigma = 0.7, 0.6


class ExpertPerson(Person):
    """As fast and steady as people come: short thinking, long bursts, long quick draw
    runs at a steady tempo, few pauses. Most of its moves are in runs."""

    median_s, sigma = 0.45, 0.5
    burst_p, burst_len, burst_median_s, burst_sigma = 0.15, (4, 12), 0.25, 0.3
    draws_p, draws_len, draws_mean_s, draws_cv = 0.08, (5, 25), (0.22, 0.35), 0.15
    pause_p, pause_s = 0.01, (2.0, 10.0)


PEOPLE: dict[str, type[ThinkStream]] = {
    "casual person": CasualPerson,
    "quick person": QuickPerson,
    "expert person": ExpertPerson,
}


# Programs -------------------------------------------------------------------


class FixedBot(ThinkStream):
    """Sleeps the same time after every acknowledgement: 50 ms to 2 s, per game."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.sleep = 10 ** rng.uniform(-1.3, 0.3)

    def next(self) -> float:
        return self.sleep


class JitteredBot(ThinkStream):
    """Sleeps a uniform time in [a, a + w], w up to half of a (a 'random delay')."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.low = 10 ** rng.uniform(-1.3, 0.0)
        self.width = self.low * rng.uniform(0.0, 0.5)

    def next(self) -> float:
        return self.low + self.rng.random() * self.width


class FastBot(ThinkStream):
    """Plays as fast as it can, with a small random wait: 20 to 150 ms."""

    def next(self) -> float:
        return self.rng.uniform(0.02, 0.15)


class HumanizedBot(ThinkStream):
    """Imitates a person's spread (log-normal, sigma 0.3 to 0.6) at a steady fast median.
    Timing alone barely tells it from a person: listed to say so, not to claim it."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.median_s = rng.uniform(0.3, 0.8)
        self.sigma = rng.uniform(0.3, 0.6)

    def next(self) -> float:
        return self.rng.lognormvariate(0, self.sigma) * self.median_s


PROGRAMS: dict[str, type[ThinkStream]] = {
    "fixed sleep": FixedBot,
    "uniform jitter up to 50%": JitteredBot,
    "as fast as it can": FastBot,
    "humanized (log-normal)": HumanizedBot,
}


def game_times(kind: type[ThinkStream], seed: int) -> list[float]:
    """One game's acceptance times: 120 to 300 moves."""
    rng = random.Random(seed)
    return acceptance_times(kind(rng), rng.randint(120, 300), rng)
