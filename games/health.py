"""What `/healthz` checks: the database answers, and the channel layer carries a message.

A process whose database or channel layer is gone still serves pages from
memory and keeps its sockets open, so "the process answers" is not health.
Each check is bounded: a health probe that hangs is worse than one that fails,
because the proxy and the orchestrator would wait on it instead of routing
around the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

CHECK_TIMEOUT_S: Final = 2.0
OK: Final = "ok"

logger = logging.getLogger(__name__)


def _select_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def check_database() -> None:
    # Its own worker thread, not Django's shared sync thread: a database that
    # hangs must not stall the rest of the process behind the probe.
    await database_sync_to_async(_select_one, thread_sensitive=False)()


async def check_channel_layer() -> None:
    """A message sent to a fresh channel of this process comes back through the layer."""
    layer: Any = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    try:
        await layer.send(channel, {"type": "health.probe", "token": token})
        received = await layer.receive(channel)
        if received.get("token") != token:
            raise RuntimeError("the channel layer returned another message")
    finally:
        await _release(layer, channel)


async def _release(layer: Any, channel: str) -> None:
    # The layers free a channel when a receive on it is cancelled (that is how
    # a consumer's channel goes away); without this every probe would leave a
    # Redis subscription behind.
    pending = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    pending.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await pending


CHECKS: Final[dict[str, Callable[[], Awaitable[None]]]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
}


async def _run(name: str, check: Callable[[], Awaitable[None]], timeout_s: float) -> str:
    try:
        await asyncio.wait_for(check(), timeout_s)
    except TimeoutError:
        logger.warning("health check %s timed out after %.1f s", name, timeout_s)
        return "timeout"
    except Exception as failure:
        # The reason goes to the log, not to an unauthenticated client.
        logger.warning("health check %s failed: %r", name, failure)
        return "error"
    return OK


async def health(timeout_s: float = CHECK_TIMEOUT_S) -> dict[str, str]:
    """`{"status": "ok" | "unavailable", <check>: "ok" | "error" | "timeout", ...}`."""
    names = list(CHECKS)
    outcomes = await asyncio.gather(*(_run(n, CHECKS[n], timeout_s) for n in names))
    report = dict(zip(names, outcomes, strict=True))
    status = OK if all(outcome == OK for outcome in outcomes) else "unavailable"
    return {"status": status, **report}


async def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the channel layer both answer, else 503 naming the failure."""
    report = await health()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
