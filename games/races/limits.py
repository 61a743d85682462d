"""How often one client may open a race socket, how many it may hold open, and how
fast it may send frames on one.

Every socket costs its process a session lookup, a snapshot of the race (the
racers' positions) and a channel-layer subscription before it has sent a
frame. A client that reconnects in a loop (a flooder closed for flooding, a
script) would spend that on every attempt, and slow every honest racer's
answers (bench/faults/abuse.py; docs/performance.md, "Faults"). This refuses
such attempts before that work, per process (`socket_admit`):

1. the address's own bucket (a large one: a school or an office shares one
   address), from memory;
2. the sockets the address holds open in this process (`WS_OPEN_PER_ADDRESS`;
   nginx's `limit_conn` caps them across processes), from memory;
3. the client's bucket: its session when that session EXISTS (one lookup of
   its key, which the socket's own log-in then reuses), else the address's
   bucket for clients without one. A cookie's value alone is never a client:
   invented session cookies all land in their address's bucket.

A program's socket (games/api/sockets.py) has a token that was checked before
this runs: it is its own client, whatever address it shares with other bots
(the house bot's among them), and is held to its own bucket only.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final

from channels.db import database_sync_to_async
from django.conf import settings

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


def client_address(scope: Mapping[str, Any]) -> str:
    """The peer's address (the proxy's X-Forwarded-For with Daphne's --proxy-headers)."""
    client = scope.get("client") or ("unknown", 0)
    return str(client[0])


def _session_exists(session: Any) -> bool:
    """Does the socket's session cookie name a live session? Loading it answers: a
    missing or expired one loads empty, without a key."""
    if session is None or not session.session_key:
        return False
    session.keys()
    return session.session_key is not None


class SocketAdmission:
    """The three checks of the module's docstring, and the open sockets per address."""

    def __init__(self) -> None:
        self.addresses = ConnectLimiter(
            settings.WS_ADDRESS_CONNECTS_PER_MIN, settings.WS_ADDRESS_CONNECT_BURST
        )
        self.clients = ConnectLimiter(settings.WS_CONNECTS_PER_MIN, settings.WS_CONNECT_BURST)
        self.open: Counter[str] = Counter()

    async def admit(self, scope: Mapping[str, Any]) -> bool:
        token = scope.get("api_token")
        if token is not None:
            return self.clients.allow(f"token:{token}")
        address = client_address(scope)
        if not self.addresses.allow(f"address:{address}"):
            return False
        if self.open[address] >= settings.WS_OPEN_PER_ADDRESS:
            return False
        session = scope.get("session")
        if await database_sync_to_async(_session_exists)(session):
            return self.clients.allow(f"session:{session.session_key}")  # type: ignore[union-attr]
        return self.clients.allow(f"address:{address}")

    def opened(self, scope: Mapping[str, Any]) -> None:
        if scope.get("api_token") is None:
            self.open[client_address(scope)] += 1

    def closed(self, scope: Mapping[str, Any]) -> None:
        if scope.get("api_token") is not None:
            return
        address = client_address(scope)
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


admission = SocketAdmission()
