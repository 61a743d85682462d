"""Two invitations one inviter sends at once seat their invitees in one lobby (#37).

Real threads on the real database. On PostgreSQL both sends are held at the lobby's
insert by a table lock taken from another connection, so both have looked for an open
lobby before either made one: without a lock of the inviter's own, each made its own.
SQLite runs one write transaction at a time (IMMEDIATE), so there nothing overlaps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections

from games.models import Player, Race
from tests.friends.conftest import befriend
from tests.friends.helpers import invite, open_lobbies

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE_S = 30


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        (waiting,) = cursor.fetchone()
    return int(waiting)


@contextmanager
def _race_inserts_held() -> Iterator[Callable[[int], None]]:
    """Hold every insert into the races' table until `release(n)`: it waits (up to the
    deadline) for `n` sessions to be waiting on a lock, then lets them all go."""
    if connection.vendor != "postgresql":
        yield lambda n: None
        return
    db = settings.DATABASES["default"]
    holder = psycopg.connect(
        host=db["HOST"],
        port=db["PORT"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=False,
    )
    # SHARE lets others read the table and lock its rows, and makes them wait to insert.
    holder.execute(f"LOCK TABLE {Race._meta.db_table} IN SHARE MODE")

    def release(n: int) -> None:
        deadline = time.monotonic() + DEADLINE_S
        while _waiting_on_locks() < n:
            assert time.monotonic() < deadline, "the senders never reached the lobby's insert"
            time.sleep(0.01)  # a poll's pace: the deadline above bounds the wait
        holder.rollback()

    try:
        yield release
    finally:
        holder.rollback()
        holder.close()


def test_two_invitations_sent_at_once_share_one_lobby(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    barrier = threading.Barrier(2)
    lobbies: dict[int, int] = {}
    errors: list[BaseException] = []

    def send(invitee: Player) -> None:
        try:
            barrier.wait(timeout=DEADLINE_S)
            (invitation,) = invite(alice, invitee)
            lobbies[invitee.pk] = invitation.race_id
        except BaseException as failure:  # reported below: a thread must not fail silently
            errors.append(failure)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(p,)) for p in (bob, charlie)]
    with _race_inserts_held() as release:
        for thread in threads:
            thread.start()
        release(2)
        for thread in threads:
            thread.join(timeout=DEADLINE_S)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors
    assert len(lobbies) == 2
    assert lobbies[bob.pk] == lobbies[charlie.pk], "each send opened a lobby of its own"
    assert [lobby.pk for lobby in open_lobbies(alice)] == [lobbies[bob.pk]]
