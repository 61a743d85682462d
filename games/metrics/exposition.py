"""Serving the metrics on a port of their own, in a thread of the web process.

Why a port and not a URL behind an allow-list: every request through nginx
comes from nginx's address, so an allow-list in Django would have to trust
X-Forwarded-For, and one proxy rule forgotten would publish the figures. On a
port nginx never proxies to, /metrics is not reachable from outside at all
(in compose the port is only on the internal network; locally it is bound
to loopback). The thread also answers while the event loop is stuck, which
is when the figures are wanted.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Final

from prometheus_client import REGISTRY, start_http_server

from games.metrics.collectors import RacesByState

log = logging.getLogger(__name__)

PORT_VARIABLE: Final = "SULTAN_METRICS_PORT"
ADDRESS_VARIABLE: Final = "SULTAN_METRICS_ADDR"

_started = threading.Lock()
_running = False


def metrics_serve_from_environment() -> int | None:
    """Start the metrics server when SULTAN_METRICS_PORT is set; the port, or None.

    Called once per process by the ASGI application (sultan_site/asgi.py);
    calling it again does nothing.
    """
    global _running
    port_text = os.environ.get(PORT_VARIABLE, "").strip()
    if not port_text:
        return None
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{PORT_VARIABLE}={port_text!r} is not a port number") from None
    address = os.environ.get(ADDRESS_VARIABLE, "127.0.0.1").strip() or "127.0.0.1"
    with _started:
        if _running:
            return port
        REGISTRY.register(RacesByState())
        start_http_server(port, addr=address)
        _running = True
    log.info("metrics on http://%s:%s/metrics", address, port)
    return port
