"""Where the house bot opens its race socket: the one place that address comes from.

The bot sends its play token (`Authorization: Bearer sultan_…`) to whatever this
returns, so it is never read from a request: a request's Host header (and its
Origin and Referer) is the client's to write, and a host who forged
`Host: 127.0.0.1:<their port>` on "add a bot" once received the bot's token
(issue #36). The address is, in order:

1. `SULTAN_BOT_SOCKET_URL` (settings; e.g. `ws://127.0.0.1:8000`, checked at start-up);
2. else the address this process accepts connections on, as its server saw it: the
   local end of the first TCP connection it served (the ASGI scope's `server`, which
   Daphne takes from the socket, never from a header), recorded by
   sultan_site/asgi.py. A connection can only have reached this process there, so
   the bot connects to this very process, behind any proxy;
3. else none: a process that has served nothing over TCP (a Unix socket, a test
   without a server) seats no bot, with a clear refusal.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Sequence
from typing import Any

from django.conf import settings

_lock = threading.Lock()
_bound: str | None = None


def bound_address_note(server: Sequence[Any] | None) -> None:
    """Remember the local address of a connection this process served (the first wins:
    it does not change for a process's life, and later calls cost one comparison)."""
    global _bound
    if _bound is not None or not server or len(server) != 2:
        return
    host, port = server
    if not isinstance(host, str) or not isinstance(port, int) or not 0 < port < 65536:
        return  # a Unix socket's path, or no address at all
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return  # Daphne reports the socket's address, a literal IP; anything else is not
    if ip.is_unspecified:
        return
    base = f"ws://[{ip}]:{port}" if ip.version == 6 else f"ws://{ip}:{port}"
    with _lock:
        if _bound is None:
            _bound = base


def bound_address_forget() -> None:
    """For tests: as a process that has served nothing yet."""
    global _bound
    with _lock:
        _bound = None


def bot_socket_base() -> str | None:
    """The base URL (`ws://host:port`) the house bot's socket goes to; None: no known address."""
    configured = str(settings.SULTAN_BOT_SOCKET_URL or "")
    if configured:
        return configured.rstrip("/")
    return _bound
