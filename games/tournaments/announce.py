"""A tournament's next version and its standings to its sockets, once a change is committed.

The table is built once per change, in the thread that committed it, and goes
to the tournament's group as text: every socket relays the same bytes. A
change announced twice sends the same version, which clients drop.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Final

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import F

from games.tournaments import protocol
from games.tournaments.models import Tournament
from games.tournaments.selectors import tournament_phase, tournament_standings

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def standings_frame(*, tournament: Tournament) -> str:
    return protocol.encode(
        protocol.standings(
            version=tournament.version,
            phase=tournament_phase(tournament=tournament),
            ends_at=tournament.ends_at.isoformat(),
            rows=tournament_standings(tournament=tournament),
        )
    )


def tournament_announce(*, tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return  # deleted while its table waited for its turn: nobody left to tell
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "tournament.standings", "text": standings_frame(tournament=tournament)}
    try:
        async_to_sync(layer.group_send)(tournament_group(tournament_id), message)
    except Exception:
        # The table is the database's: a socket that missed it gets it on `sync` or reconnect.
        logger.warning("tournament %s: standings not sent", tournament_id, exc_info=True)


def tournament_changed(*, tournament_id: int) -> None:
    """A change the standings show: once it commits, the tournament's next version and
    its table to the sockets. The version is bumped in a statement of its own after
    the commit, never inside the change's transaction: a scoring or a join never
    waits on a tick holding the row, and no two writers lock rows in opposite orders
    (tests/tournaments; bench/arena.py found the deadlock this avoids)."""

    def bump_and_send() -> None:
        Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
        _throttled_announce(tournament_id)

    transaction.on_commit(bump_and_send)


def _throttled_announce(tournament_id: int) -> None:
    """At most one table a tournament every `COALESCE_S` from this process: a change
    within that is sent with the next table, the latest state read when it goes
    (a table costs a fold and a frame to every socket; bench/arena.py)."""
    now = time.monotonic()
    with _lock:
        if tournament_id in _due:
            return  # a table is already on its way, and will read this change too
        wait = _sent.get(tournament_id, -COALESCE_S) + COALESCE_S - now
        if wait > 0:
            _due.add(tournament_id)
            timer = threading.Timer(wait, _send_due, args=(tournament_id,))
            timer.daemon = True
            timer.start()
            return
        _sent[tournament_id] = now
    tournament_announce(tournament_id=tournament_id)


def _send_due(tournament_id: int) -> None:
    with _lock:
        _due.discard(tournament_id)
        _sent[tournament_id] = time.monotonic()
    try:
        tournament_announce(tournament_id=tournament_id)
    finally:
        connection.close()  # this timer's thread had a connection of its own


COALESCE_S: Final = 0.25
_lock = threading.Lock()
_sent: dict[int, float] = {}  # when this process last sent each tournament's table
_due: set[int] = set()  # tables waiting for their turn
