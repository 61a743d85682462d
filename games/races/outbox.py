"""The race's outbox: every change to a race is written with its announcement.

A change other racers must learn of takes the race's next version and writes
the message that tells of it (a `RaceEvent` row) in the transaction that made
the change. After the commit the process's publisher sends it to the race's
group (games/races/publisher.py); should the process die first, a sweep sends
what is still unannounced. So a change is announced because it was
committed, whether or not the socket that asked for it is still open, and an
announcement sent twice (a sweep racing a slow publisher) is the same row,
the same bytes, the same version: clients drop the second as already seen.

The rows are also the race's recent history: a client that missed versions
is answered with the rows after its own (docs/protocol.md, "Outbox and
history").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games.models import Race, RaceEvent
from games.races.protocol import encode
from games.races.publisher import Announcement, publish_after_commit
from games.store.append_sql import db_datetime

_EVENT, _RACE = RaceEvent._meta.db_table, Race._meta.db_table


@dataclass(frozen=True, slots=True)
class RaceRow:
    """A race's next version and its clock, read under the row lock that took it."""

    version: int
    status: str
    starts_at: datetime | None
    time_limit_s: int
    automatic_moves: bool


def bump_race(race_id: int) -> RaceRow:
    """Take the race's next version, and read its clock under the same row lock.

    The one statement that hands out race versions (a move's, and every other
    change's through `race_change`): one UPDATE, so concurrent writers never
    get the same version, and the row stays locked until their commit, so
    versions commit in order. Plain SQL: a move is the hot path. A writer that
    also locks a game locks the game's row first (games/store/append.py).
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_RACE} SET version = version + 1 WHERE id = %s "
            f"RETURNING version, status, starts_at, time_limit_s, automatic_moves",
            [race_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise Race.DoesNotExist(f"no race {race_id}")
    version, status, starts_at, time_limit_s, automatic = row
    return RaceRow(int(version), status, db_datetime(starts_at), int(time_limit_s), bool(automatic))


def race_change(*, race_id: int, message: Callable[[int], dict[str, Any]]) -> int:
    """Take the race's next version and record `message(version)` as its announcement.

    In the caller's transaction: the version, the change and its announcement
    commit together or not at all. Returns the version.
    """
    version = bump_race(race_id).version
    race_event_record(race_id=race_id, message=message(version))
    return version


def race_event_record(*, race_id: int, message: dict[str, Any]) -> None:
    """Write an announcement (its version already taken) in the caller's transaction;
    the publisher sends it once the transaction commits."""
    assert connection.in_atomic_block, "an announcement commits with its change"
    payload = encode(message)
    # Plain SQL: a move is the hot path, and this row is written with each one.
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_EVENT} (race_id, version, kind, payload, created_at) "
            f"VALUES (%s, %s, %s, %s, %s) RETURNING id",
            [
                race_id,
                message["v"],
                message["type"],
                payload,
                connection.ops.adapt_datetimefield_value(timezone.now()),
            ],
        )
        event_id = int(cursor.fetchone()[0])
    announcement = Announcement(event_id, race_id, int(message["v"]), message["type"], payload)
    transaction.on_commit(lambda: publish_after_commit(announcement))


def race_history_forget(*, race_ids: list[int]) -> int:
    """Drop these races' recent history, which quotes racers by name (a deleted account).

    Only the history goes, never a version: a client behind is answered with a
    snapshot instead of the rows it missed (games/races/selectors.race_history),
    and a duplicate move's answer carries no version (RaceMove.version None).
    """
    deleted, _ = RaceEvent.objects.filter(race_id__in=race_ids).delete()
    return deleted
