"""How often one client may open a socket, how many it may hold open, and how
fast it may send frames on one.

Every socket costs its process a session lookup, a snapshot (of a race, a
tournament, a player's invitations) and a channel-layer subscription before it
has sent a frame. A client that reconnects in a loop (a flooder closed for
flooding, a script) would spend that on every attempt, and slow every honest
racer's answers (bench/faults/abuse.py; docs/performance.md, "Faults"). This
refuses such attempts before that work, per process (`SocketAdmission.admit`),
for every socket of the site — race, site and tournament, with a session
cookie or a program's bearer token (games/api/sockets.py) alike:

1. the address's own bucket (a large one: a school or an office shares one
   address), from memory;
2. the sockets the address holds open in this process (`WS_OPEN_PER_ADDRESS`;
   nginx's `limit_conn` caps them across processes), from memory;
3. the sockets the player holds open in this process (`WS_OPEN_PER_PLAYER`),
   whatever their addresses: an account (by its cookie or by any of its
   tokens), a guest by its session;
4. the client's bucket: a program's token, a session that EXISTS (one lookup
   of its key, which the socket's own log-in then reuses), else the address's
   bucket for clients without one. A cookie's value alone is never a client:
   invented session cookies all land in their address's bucket.

A token is no way around 1–3: bots sharing a machine share its address's
limits, which a bench or a bot farm of one's own raises in settings. The one
exception is the house bot (games/bots/house.py): the server's own client,
opening one socket per seat its hosts asked for (those are counted, as
`bot` quotas), from the server's own address.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from channels.db import database_sync_to_async
from django.conf import settings

from games.bots.rules import is_house_bot

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


@dataclass(frozen=True, slots=True)
class Admitted:
    """A socket let in: what it counts against while it is open (`player` is None for
    a visitor without a session; `counted` is False for the house bot's)."""

    address: str
    player: str | None
    counted: bool = True


def _account(scope: Mapping[str, Any]) -> Any:
    user = scope.get("user")
    return user if user is not None and user.is_authenticated else None


class SocketAdmission:
    """The four checks of the module's docstring, and the sockets open per address
    and per player."""

    def __init__(self) -> None:
        self.addresses = ConnectLimiter(
            settings.WS_ADDRESS_CONNECTS_PER_MIN, settings.WS_ADDRESS_CONNECT_BURST
        )
        self.clients = ConnectLimiter(settings.WS_CONNECTS_PER_MIN, settings.WS_CONNECT_BURST)
        self.open: Counter[str] = Counter()
        self.open_players: Counter[str] = Counter()

    async def admit(self, scope: Mapping[str, Any]) -> Admitted | None:
        """The socket's admission, or None: refuse it at the handshake."""
        address = client_address(scope)
        token = scope.get("api_token")
        account = _account(scope)
        if token is not None and is_house_bot(user=account):
            admitted = Admitted(address, None, counted=False)
            return admitted if self.clients.allow(f"token:{token}") else None
        # A program's socket took its address's bucket before its token was looked up
        # (games/api/sockets.py): an invented token costs a lookup, and is counted.
        if token is None and not self.address_allows(address):
            return None
        if self.open[address] >= settings.WS_OPEN_PER_ADDRESS:
            return None
        session = scope.get("session")
        live_session = token is None and await database_sync_to_async(_session_exists)(session)
        if account is not None:
            player: str | None = f"user:{account.pk}"
        elif live_session:
            player = f"session:{session.session_key}"  # type: ignore[union-attr]
        else:
            player = None
        if player is not None and self.open_players[player] >= settings.WS_OPEN_PER_PLAYER:
            return None
        if token is not None:
            client = f"token:{token}"
        elif live_session:
            client = f"session:{session.session_key}"  # type: ignore[union-attr]
        else:
            client = f"address:{address}"
        return Admitted(address, player) if self.clients.allow(client) else None

    def address_allows(self, address: str) -> bool:
        """One more socket from this address, by its connect bucket (check 1)."""
        return self.addresses.allow(f"address:{address}")

    def opened(self, admitted: Admitted) -> None:
        if not admitted.counted:
            return
        self.open[admitted.address] += 1
        if admitted.player is not None:
            self.open_players[admitted.player] += 1

    def closed(self, admitted: Admitted | None) -> None:
        if admitted is None or not admitted.counted:
            return
        _uncount(self.open, admitted.address)
        if admitted.player is not None:
            _uncount(self.open_players, admitted.player)


def _uncount(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


admission = SocketAdmission()
