"""How far a socket's client is behind: the bytes the server holds for it, unsent.

Channels' `send` never waits: Daphne hands every frame to Twisted, whose
transport keeps what the kernel would not take in a buffer without a limit. A
client that stops reading (a frozen tab, a phone in a tunnel, a bot that never
calls recv) would have every later frame of its race piled up there, in the
server's memory. The channel layer's queue for the socket does not grow (the
socket's reader takes each message at once and sends it on), nor does the
Fanout's buffer beyond one entry per racer (a racer's later state supersedes
the earlier); the transport's buffer is the one to watch, and this reads it.

Below Twisted the kernel holds bytes too, and Linux grows a socket's send
buffer by itself up to `net.ipv4.tcp_wmem`'s maximum (4 MB by default: a
stalled socket measured holding 3.9 MB) before Twisted's buffer starts to
grow. The socket's send buffer is therefore set to WS_SEND_BUFFER_BYTES
(the kernel doubles it for its bookkeeping), ample for a race's frames.

Twisted has no public call for its buffer: `dataBuffer`, `offset` and `_tempDataLen`
are FileDescriptor's write buffer (twisted/internet/abstract.py), stable for
years. Where the socket is not over a Twisted transport (the in-process test
communicator, another server), `unsent()` is 0: nothing is shed or closed.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings

# Where the wrappers of `send` between Daphne and a consumer keep the one they wrap:
# Channels' sessions (InstanceSessionWrapper), our token sockets (api/sockets.py).
_WRAPPED_SEND = ("real_send", "_send")


def _transport_of(send: Callable[..., Any]) -> Any:
    """Daphne's `send` is `partial(server.handle_reply, protocol)`; the protocol's transport."""
    for _ in range(8):
        if isinstance(send, partial):
            transport = getattr(send.args[0], "transport", None) if send.args else None
            # Under TLS the bytes wait in the wrapped transport below the TLS protocol.
            while transport is not None and not hasattr(transport, "dataBuffer"):
                transport = getattr(transport, "transport", None)
            return transport
        owner = getattr(send, "__self__", None)
        inner = next((getattr(owner, a) for a in _WRAPPED_SEND if hasattr(owner, a)), None)
        if inner is None:
            return None
        send = inner
    return None


logger = logging.getLogger(__name__)


def _cap_send_buffer(transport: Any, size: int) -> None:
    handle = getattr(transport, "getHandle", None)
    if handle is None or size <= 0:
        return
    try:
        handle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
    except (OSError, AttributeError):  # not a socket (a pipe, a test double)
        logger.debug("the send buffer was left to the kernel", exc_info=True)


def unsent_bytes(transport: Any) -> int:
    if transport is None:
        return 0
    buffered = getattr(transport, "dataBuffer", b"")
    return len(buffered) - getattr(transport, "offset", 0) + getattr(transport, "_tempDataLen", 0)


class Backlog:
    """One socket's unsent bytes against the two limits (docs/protocol.md, *Slow readers*).

    Behind: more than WS_SHED_BYTES unsent; its progress frames wait, coalesced
    (races/fanout.py). Stalled: more than WS_STALL_CLOSE_BYTES unsent, or behind
    for WS_STALL_CLOSE_S on end; the socket is closed (CLOSE_BEHIND)."""

    __slots__ = ("behind_since", "close_bytes", "close_s", "shed_bytes", "transport")

    def __init__(self, send: Callable[..., Any]) -> None:
        self.transport = _transport_of(send)
        self.shed_bytes: int = settings.WS_SHED_BYTES
        self.close_bytes: int = settings.WS_STALL_CLOSE_BYTES
        self.close_s: float = settings.WS_STALL_CLOSE_S
        self.behind_since: float | None = None
        _cap_send_buffer(self.transport, settings.WS_SEND_BUFFER_BYTES)

    def unsent(self) -> int:
        return unsent_bytes(self.transport)

    def behind(self) -> bool:
        if self.unsent() <= self.shed_bytes:
            self.behind_since = None
            return False
        if self.behind_since is None:
            self.behind_since = time.monotonic()
        return True

    def stalled(self) -> bool:
        if self.transport is None:
            return False
        if self.unsent() > self.close_bytes:
            return True
        return self.behind() and time.monotonic() - (self.behind_since or 0.0) >= self.close_s
