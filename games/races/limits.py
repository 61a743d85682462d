"""How often one client may open a race socket, and send frames on one.

Every socket costs its process a session lookup, a snapshot of the race (the
racers' positions) and a channel-layer subscription before it has sent a
frame. A client that reconnects in a loop (a flooder closed for flooding, a
script) would spend that on every attempt, and slow every honest racer's
answers (bench/faults/abuse.py; docs/performance.md, "Faults"). This refuses
such attempts before any of that work, from memory, per process.

A client is its session cookie when it has one (every seated racer does), else
its address: a reconnect storm without cookies is judged by where it comes from.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final

# Clients remembered at most; the least recently seen are forgotten first, so
# memory stays bounded whatever the number of addresses or forged cookies.
MAX_CLIENTS: Final = 50_000


class TokenBucket:
    """`burst` at once, then `rate` a second: the limit on a socket's frames, and
    on each client's sockets in `ConnectLimiter`."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class ConnectLimiter:
    """A token bucket per client: `burst` sockets at once, then `per_minute`."""

    def __init__(
        self,
        per_minute: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, client: str) -> bool:
        bucket = self._buckets.pop(client, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, self.clock)
        self._buckets[client] = bucket  # now the most recently seen
        if len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return bucket.take()


def client_key(scope: Mapping[str, Any], cookie_name: str) -> str:
    """A program's token (games/api/sockets.py), else the session cookie, else the peer's
    address (the proxy's X-Forwarded-For with Daphne's --proxy-headers). Bots on one
    machine, the house bot's among them, share an address, not a token."""
    token = scope.get("api_token")
    if token is not None:
        return f"token:{token}"
    session = (scope.get("cookies") or {}).get(cookie_name)
    if session:
        return f"session:{session}"
    client = scope.get("client") or ("unknown", 0)
    return f"address:{client[0]}"
