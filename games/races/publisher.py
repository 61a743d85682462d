"""Sending the race's committed announcements to its sockets, and who is here.

One `Publisher` per process and event loop, not per socket: what a socket
asked for is announced whether or not that socket is still open.

- Live: a transaction that wrote announcements hands them over once it has
  committed (`publish_after_commit`, from whichever thread committed); the
  publisher sends them to the race's group and marks them sent, every
  `MARK_EVERY_S` in one UPDATE for all that went out meanwhile.
- Sweep: every second it sends what was committed more than a moment ago and
  is still unmarked (its process died between the commit and the send, or the
  channel layer was down), then marks it. No lock is held while sending (a
  database thread never waits on the event loop): two processes sweeping at
  once may both send a row, the same bytes, which clients drop as seen.
- Presence: who has a socket open is not a versioned change; a race's
  presence is sent at most every `PRESENCE_EVERY_S`, the latest state read
  when it goes (docs/protocol.md, "Presence").

A group message carries the stored payload as text; a progress event also
its racer's part, encoded once for all the sockets that coalesce it into
their frames (games/races/fanout.py).

Metrics (games/metrics/): each group message sent counts in `BROADCASTS` by
kind; from an announcement's commit to its send is `PUBLISHER_LAG_SECONDS`
(the live send from the moment the commit handed it over, the sweep's from
its row's creation); the sweep sets `PUBLISHER_BACKLOG_AGE_SECONDS` to the age
of the oldest announcement still unmarked, what an alert watches for a stuck
publisher.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, ClassVar, Final

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from games.common.db_threads import db
from games.metrics.definitions import (
    BROADCASTS,
    PUBLISHER_BACKLOG_AGE_SECONDS,
    PUBLISHER_LAG_SECONDS,
)
from games.models import UNPUBLISHED, RaceEntry, RaceEvent
from games.races.protocol import encode, presence, progress_racer

# An announcement unmarked for this long was not sent by the process that wrote it.
SWEEP_AFTER_S: Final = 2.0
SWEEP_EVERY_S: Final = 1.0
SWEEP_BATCH: Final = 500
# History kept: a client further behind than this gets a snapshot.
HISTORY_KEEP_S: Final = 30 * 60
PRUNE_EVERY_S: Final = 60.0
PRESENCE_EVERY_S: Final = 0.5
# A send the channel layer cannot take within this is left to the sweep.
SEND_TIMEOUT_S: Final = 5.0
# Rows sent are marked at most this often, in one UPDATE: a move's cost stays one
# INSERT of its announcement, whatever the rate (the sweep waits far longer).
MARK_EVERY_S: Final = 0.1

logger = logging.getLogger(__name__)


def race_group(race_id: int) -> str:
    return f"race-{race_id}"


def group_message(announcement: Announcement) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "race.event",
        "kind": announcement.kind,
        "v": announcement.version,
        "text": announcement.payload,
    }
    if announcement.kind == "progress":
        event = json.loads(announcement.payload)
        message.update(player=event["player"], seq=event["seq"], racer=progress_racer(event))
        # Wall clock: the socket sending it on may be in another process (fanout.py).
        message["sent"] = time.time()
    return message


def announcement_sent(announcement: Announcement) -> None:
    """Count a group message that went out, and how long after its commit."""
    BROADCASTS.labels(announcement.kind).inc()
    if announcement.committed_at:
        PUBLISHER_LAG_SECONDS.observe(max(0.0, time.time() - announcement.committed_at))


class Publisher:
    current: ClassVar[Publisher | None] = None

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[Announcement] = asyncio.Queue()
        self.presence_due: dict[int, asyncio.Task[None]] = {}
        self.sent: list[int] = []  # sent, not yet marked
        self.tasks = [
            loop.create_task(self._publish_forever()),
            loop.create_task(self._mark_forever()),
            loop.create_task(self._sweep()),
        ]

    @classmethod
    def ensure(cls) -> Publisher:
        """This loop's publisher, started on first use (from async code)."""
        loop = asyncio.get_running_loop()
        current = cls.current
        if current is None or current.loop is not loop:
            current = cls.current = Publisher(loop)
        return current

    def alive(self) -> bool:
        return self.loop.is_running() and not self.loop.is_closed()

    # Announcements ------------------------------------------------------

    async def _publish_forever(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            delay = settings.RACE_FAULT_PUBLISH_DELAY_S
            if delay:  # fault injection (tests/races/test_outbox_faults.py): a kill lands here
                await asyncio.sleep(delay)
            try:
                await self._publish(batch)
            except Exception:
                logger.warning("race announcements left to the sweep", exc_info=True)

    async def _publish(self, batch: list[Announcement]) -> None:
        layer = get_channel_layer()
        results = await asyncio.gather(
            *(
                asyncio.wait_for(
                    layer.group_send(race_group(a.race_id), group_message(a)), SEND_TIMEOUT_S
                )
                for a in batch
            ),
            return_exceptions=True,
        )
        sent = []
        for a, result in zip(batch, results, strict=True):
            if result is None:
                announcement_sent(a)
                sent.append(a.id)
        if len(sent) < len(batch):
            logger.warning(
                "%d race announcements not sent: the sweep retries", len(batch) - len(sent)
            )
        self.sent += sent

    async def _mark_forever(self) -> None:
        while True:
            await asyncio.sleep(MARK_EVERY_S)
            if not self.sent:
                continue
            sent, self.sent = self.sent, []
            try:
                await db(race_events_mark_published)(ids=sent)
            except Exception:
                # Unmarked rows are sent again by a sweep: the same bytes, dropped as seen.
                logger.warning("%d race announcements not marked sent", len(sent), exc_info=True)

    async def _sweep(self) -> None:
        pruned_at = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_EVERY_S)
            try:
                await sweep_unpublished()
                await db(backlog_age_measure)()
                if time.monotonic() - pruned_at > PRUNE_EVERY_S:
                    pruned_at = time.monotonic()
                    await db(prune_history)()
            except Exception:
                logger.warning("race announcement sweep failed", exc_info=True)

    # Presence -----------------------------------------------------------

    def presence_changed(self, race_id: int) -> None:
        """Someone's socket opened or closed: tell the race soon, the latest state wins."""
        if race_id not in self.presence_due:
            self.presence_due[race_id] = self.loop.create_task(self._send_presence(race_id))

    async def _send_presence(self, race_id: int) -> None:
        try:
            await asyncio.sleep(PRESENCE_EVERY_S)
        finally:
            # A change from here on schedules another send: none is lost.
            self.presence_due.pop(race_id, None)
        try:
            here = await db(race_here)(race_id)
            text = encode(presence(here=here, at_ms=time.time_ns() // 1_000_000))
            await get_channel_layer().group_send(
                race_group(race_id), {"type": "race.event", "kind": "presence", "text": text}
            )
            BROADCASTS.labels("presence").inc()
        except Exception:
            logger.warning("presence of race %s not sent", race_id, exc_info=True)


@dataclass(frozen=True, slots=True)
class Announcement:
    """A committed event on its way to the race's sockets."""

    id: int
    race_id: int
    version: int
    kind: str
    payload: str
    # When its transaction committed (time.time()), for the publisher's lag; 0: unknown.
    committed_at: float = 0.0


def publish_after_commit(announcement: Announcement) -> None:
    """Hand a committed announcement to this process's publisher (any thread)."""
    announcement = replace(announcement, committed_at=time.time())
    publisher = Publisher.current
    if publisher is not None and publisher.alive():
        publisher.loop.call_soon_threadsafe(publisher.queue.put_nowait, announcement)
        return
    # No event loop of ours (a management command, a synchronous test): send it now.
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            race_group(announcement.race_id), group_message(announcement)
        )
    except Exception:
        logger.warning("race announcement left to the sweep", exc_info=True)
        return
    announcement_sent(announcement)
    race_events_mark_published(ids=[announcement.id])


def unpublished(
    older_than_s: float = SWEEP_AFTER_S, limit: int = SWEEP_BATCH
) -> list[Announcement]:
    """What was committed more than a moment ago and never marked sent, oldest first."""
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    rows = (
        RaceEvent.objects.filter(UNPUBLISHED, created_at__lt=cutoff)
        .order_by("race_id", "version")
        .values_list("pk", "race_id", "version", "kind", "payload", "created_at")[:limit]
    )
    # Its row was written in the transaction, a moment before the commit.
    return [
        Announcement(pk, race_id, version, kind, payload, committed_at=created_at.timestamp())
        for pk, race_id, version, kind, payload, created_at in rows
    ]


async def sweep_unpublished(older_than_s: float = SWEEP_AFTER_S) -> int:
    """Send what its process never sent, and mark it. Read, sent and marked in three
    steps, no transaction held across the send: two processes sweeping at once may
    both send a row, the same bytes under the same version, which clients drop."""
    found = await db(unpublished)(older_than_s)
    if not found:
        return 0
    layer = get_channel_layer()
    sent = []
    for announcement in found:
        with contextlib.suppress(Exception):  # still down: the next sweep tries again
            await asyncio.wait_for(
                layer.group_send(race_group(announcement.race_id), group_message(announcement)),
                SEND_TIMEOUT_S,
            )
            announcement_sent(announcement)
            sent.append(announcement.id)
    if sent:
        logger.info("sent %d race announcements left unsent", len(sent))
        await db(race_events_mark_published)(ids=sent)
    return len(sent)


def backlog_age_measure() -> float:
    """Set the backlog's gauge to the age of the oldest announcement still unmarked."""
    oldest = RaceEvent.objects.filter(UNPUBLISHED).aggregate(at=Min("created_at"))
    age = 0.0 if oldest["at"] is None else (timezone.now() - oldest["at"]).total_seconds()
    PUBLISHER_BACKLOG_AGE_SECONDS.set(max(0.0, age))
    return age


def prune_history(keep_s: float = HISTORY_KEEP_S) -> int:
    cutoff = timezone.now() - timedelta(seconds=keep_s)
    deleted, _ = RaceEvent.objects.filter(
        published_at__isnull=False, created_at__lt=cutoff
    ).delete()
    return deleted


def race_here(race_id: int) -> list[int]:
    here = RaceEntry.objects.filter(race_id=race_id, connections__gt=0)
    return sorted(here.values_list("player_id", flat=True))


def race_events_mark_published(*, ids: list[int]) -> None:
    RaceEvent.objects.filter(UNPUBLISHED, pk__in=ids).update(published_at=timezone.now())
