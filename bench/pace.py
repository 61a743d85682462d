"""How fast scripted racers move: a fixed gap, or a person's rhythm."""

from __future__ import annotations

import random
from dataclasses import dataclass


class Pace:
    """Seconds to wait after an acknowledgement before the next move."""

    def gap(self) -> float:
        raise NotImplementedError


@dataclass
class FixedPace(Pace):
    seconds: float

    def gap(self) -> float:
        return self.seconds


# The server takes 30 frames a second from a socket; a little under it, sustained.
PROTOCOL_GAP_S = 1 / 28


@dataclass
class HumanPace(Pace):
    """About a move a second: log-normal thinking, runs of quick obvious plays, pauses.

    Per move: a burst (3 to 8 moves 120 to 250 ms apart) starts with
    probability `burst`; a pause of 2 to 5 s with probability `pause`; else a
    log-normal gap of median `median_s`.
    """

    rng: random.Random
    median_s: float = 0.7
    sigma: float = 0.5
    burst: float = 0.08
    pause: float = 0.03
    _left_in_burst: int = 0

    def gap(self) -> float:
        if self._left_in_burst > 0:
            self._left_in_burst -= 1
            return self.rng.uniform(0.12, 0.25)
        roll = self.rng.random()
        if roll < self.burst:
            self._left_in_burst = self.rng.randint(2, 7)
            return self.rng.uniform(0.12, 0.25)
        if roll < self.burst + self.pause:
            return self.rng.uniform(2.0, 5.0)
        return self.rng.lognormvariate(0, self.sigma) * self.median_s


def pace_for(pace_ms: float | None, median_s: float, rng: random.Random) -> Pace:
    """A fixed gap of `pace_ms` when given, else a person's rhythm around `median_s`."""
    if pace_ms is not None:
        return FixedPace(pace_ms / 1000)
    return HumanPace(rng, median_s=median_s)
