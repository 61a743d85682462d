"""A tournament's standings to its sockets, as the rows that changed, once a change is committed.

Every frame of a tournament is a link of one chain: under the row lock of its
`TournamentTable` (the table as last sent), the sender reads the tournament's
version and its standings, sends the rows that differ from the stored table
(`rows`, its `base` the stored version) and stores the new table. Whichever
process sends, each frame's `base` is the `v` of the frame before it, so a
client holding version `base` applies it and any other asks for the whole table
(`sync`). A socket's first frame, and its answer to `sync`, is the stored table
(`standings`): always a version of the chain. The whole table goes to one
socket at a time; to all of them, only what moved (bench/arena.py: at 150 bots
the whole table to every socket was what the standings waited on).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import F

from games.models import DELETED_NICKNAME, Player
from games.tournaments import protocol
from games.tournaments.models import Tournament, TournamentTable
from games.tournaments.selectors import tournament_phase, tournament_standings

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def standings_frame(*, tournament: Tournament) -> str:
    """The whole table as last sent (sent first if a change since has not gone out yet),
    with each player's name as it is now."""
    table = tournament_table(tournament_id=tournament.pk)
    version, rows = (table.version, _named(table.rows)) if table is not None else (0, [])
    return protocol.encode(
        protocol.standings(
            version=version,
            phase=tournament_phase(tournament=tournament),
            ends_at=tournament.ends_at.isoformat(),
            rows=rows,
        )
    )


def tournament_table(*, tournament_id: int) -> TournamentTable | None:
    """The tournament's table as last sent, the chain's latest link: what a socket is
    sent first and in answer to `sync`. When the tournament changed since that table
    went out (its frame still waits for its turn, or the process due to send it died),
    the change is announced first, to every socket, and the table it stored is returned:
    a socket never starts from a version the others will not build on. None when the
    tournament is gone."""
    table = TournamentTable.objects.filter(pk=tournament_id).select_related("tournament").first()
    if table is not None and table.version >= table.tournament.version:
        return table
    return tournament_announce(tournament_id=tournament_id)


def tournament_announce(*, tournament_id: int) -> TournamentTable | None:
    """The next link of the chain, if the tournament changed since the last: stored and sent."""
    with _announcing(tournament_id), transaction.atomic():
        if not Tournament.objects.filter(pk=tournament_id).exists():
            return None  # deleted while its table waited for its turn: nobody left to tell
        table, _ = TournamentTable.objects.select_for_update().get_or_create(
            tournament_id=tournament_id
        )
        # Read under the lock: no other sender is between this version and its frame.
        tournament = Tournament.objects.get(pk=tournament_id)
        if tournament.version <= table.version:
            # Sent already, by this process or another; or, new at version 0, a
            # table nobody has joined yet (every join bumps the version).
            return table
        rows = tournament_standings(tournament=tournament)
        stored = [_nameless(row) for row in rows]
        changed, order = rows_changed(before=table.rows, after=stored)
        named = {row["player"]: row for row in rows}
        frame = protocol.rows(
            version=tournament.version,
            base=table.version,
            phase=tournament_phase(tournament=tournament),
            ends_at=tournament.ends_at.isoformat(),
            rows=[_unranked(named[row["player"]]) for row in changed],
            order=order,
        )
        table.version, table.rows = tournament.version, stored
        table.save(update_fields=["version", "rows"])
        # Sent before the lock goes, so frames reach the group in the chain's order.
        _send(tournament_id, protocol.encode(frame))
    return table


def rows_changed(
    *, before: list[dict[str, Any]], after: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """The rows of `after` that differ from `before` (rank aside: it is the order's), and
    the order of players when it moved. A racer passing ten others changes one row."""
    old = {row["player"]: _unranked(row) for row in before}
    changed = [_unranked(row) for row in after if old.get(row["player"]) != _unranked(row)]
    order = [row["player"] for row in after]
    moved = order != [row["player"] for row in before]
    return changed, order if moved else None


def _unranked(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "rank"}


def _nameless(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the table is stored: who a player is stays with the player, read when a
    frame is built, so a deleted account's name is kept in no table (games/accounts/
    deletion.py forgets it in one place) and a guest's new name shows on the next table."""
    return {key: value for key, value in row.items() if key not in IDENTITY}


def _named(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored rows with each player's name and bot mark as they are now (one query)."""
    players = Player.objects.filter(pk__in=[row["player"] for row in rows])
    identity = {
        pk: (nickname, bot) for pk, nickname, bot in players.values_list("pk", "nickname", "is_bot")
    }
    named = []
    for row in rows:
        nickname, bot = identity.get(row["player"], (DELETED_NICKNAME, False))
        named.append(_nameless(row) | {"nickname": nickname, "bot": bot})
    return named


def _send(tournament_id: int, text: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id), {"type": "tournament.standings", "text": text}
        )
    except Exception:
        # The next frame's base is this one's `v`: a socket that missed it asks for the table.
        logger.warning("tournament %s: standings not sent", tournament_id, exc_info=True)


def tournament_changed(*, tournament_id: int) -> None:
    """A change the standings show: once it commits, the tournament's next version and
    its changed rows to the sockets. The version is bumped in a statement of its own
    after the commit, never inside the change's transaction: a scoring or a join never
    waits on a tick holding the row, and no two writers lock rows in opposite orders
    (tests/tournaments; bench/arena.py found the deadlock this avoids)."""

    def bump_and_send() -> None:
        Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
        _throttled_announce(tournament_id)

    transaction.on_commit(bump_and_send)


def _throttled_announce(tournament_id: int) -> None:
    """At most one frame a tournament every `COALESCE_S` from this process: a change
    within that goes with the next frame, the latest state read when it goes
    (a frame costs a fold of the results and a message to every socket)."""
    now = time.monotonic()
    with _lock:
        if tournament_id in _due:
            return  # a frame is already on its way, and will read this change too
        wait = _sent.get(tournament_id, -COALESCE_S) + COALESCE_S - now
        if wait > 0:
            timer = threading.Timer(wait, _send_due, args=(tournament_id,))
            timer.daemon = True
            _due[tournament_id] = timer
            timer.start()
            return
        _sent[tournament_id] = now
    tournament_announce(tournament_id=tournament_id)


def _send_due(tournament_id: int) -> None:
    with _lock:
        _due.pop(tournament_id, None)
        _sent[tournament_id] = time.monotonic()
    try:
        tournament_announce(tournament_id=tournament_id)
    finally:
        connection.close()  # this timer's thread had a connection of its own


IDENTITY: Final = ("nickname", "bot")  # a row's fields that are the player's, not the table's
COALESCE_S: Final = 0.25
_lock = threading.Lock()  # guards the dicts below
_sent: dict[int, float] = {}  # when this process last sent each tournament's frame
_due: dict[int, threading.Timer] = {}  # frames waiting for their turn


@dataclass
class _Sender:
    """A tournament's turn to send, and how many threads hold it or wait for it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


# One sender of a tournament at a time in this process. SQLite takes no row lock
# (`select_for_update` does nothing there): its senders are ordered by its one writer,
# taken at each IMMEDIATE transaction's BEGIN, and wait for it polling the file with
# sleeps; this lock hands a tournament's turn over at once (as store/append.py's
# writer lock does for appends). Senders of different tournaments never wait for each
# other here (on SQLite they still take turns at the file). A tournament's entry lives
# while a thread holds or waits for it and goes with the last, rather than a bounded
# LRU: the dict holds only the tournaments being sent now, however many a process sent.
_senders: dict[int, _Sender] = {}


@contextmanager
def _announcing(tournament_id: int) -> Iterator[None]:
    """This tournament's turn to send, in this process."""
    with _lock:
        sender = _senders.setdefault(tournament_id, _Sender())
        sender.users += 1
    try:
        with sender.lock:
            yield
    finally:
        with _lock:
            sender.users -= 1
            # Not another's: announce_forget may have dropped this one meanwhile.
            if sender.users == 0 and _senders.get(tournament_id) is sender:
                del _senders[tournament_id]


def announce_forget() -> None:
    """Drop every frame still waiting for its turn, when each tournament was sent, and
    each tournament's turn to send.

    The tests' housekeeping, at each test's end: a frame due after its test ended
    reached the database from its timer's thread during a later test (one without a
    database: "Database access not allowed"), and a tournament that took an earlier
    one's id waited out that one's turn."""
    with _lock:
        due = list(_due.values())
        _due.clear()
        _sent.clear()
    for timer in due:
        timer.cancel()
        timer.join(timeout=30)  # one already sending finishes before its test's database goes
    with _lock:
        # Each sender drops its own entry when done: what is left is a sender that
        # outlived its timer's join. It keeps its lock (see `_announcing`); a new
        # sender of that tournament id starts afresh.
        _senders.clear()
