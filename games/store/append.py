"""The bare append: lock a game's log, check the move against it, append the events.

What to append is decided above: `plan.move_plan` turns a player's event into the
events it becomes (the engine's rules), and a race checks its own race between
the lock and the append (games/races/moves.py). This module knows logs only:
the game's row lock, the expected seq, the client move id (a retry is answered
again, a conflict refused), the log rows and the projection. It calls nothing
above it.

The lock order of every writer that takes both: the game's row, then its race's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.engine import UNDO, GameState
from games.engine.positions import TIMEOUT, Event, Position, advance
from games.i18n import messages
from games.models import Game, GameStatus, Move, Player
from games.store.append_sql import LockedGame, insert_move, lock_game, update_projection
from games.store.automatic import FINISH, automatic_move_id
from games.store.cache import positions
from games.store.selectors import game_position_at
from games.store.timing import elapsed_ms

MAX_CLIENT_MOVE_ID: Final = 64
_SQLITE_WRITER: Final = threading.Lock()


class MoveRejected(Refused):
    """A move the store did not write. `code` is one of: conflict, invalid,
    illegal, finished, forbidden, banned, not_started, too_late."""

    def __init__(self, code: str, message: str, current_seq: int) -> None:
        super().__init__(code, message)
        self.current_seq = current_seq


@dataclass(frozen=True, slots=True)
class AppendResult:
    game_id: int
    seq: int
    token: str
    events: list[Event]
    state: GameState
    duplicate: bool
    # The events the server appended after (or, for Finish, instead of) the
    # player's: `seq` is the last of them, and `events` holds theirs too,
    # each marked `"automatic": true`.
    automatic: tuple[str, ...] = ()
    moves: int = 0  # made and not taken back, after this event


@dataclass(frozen=True, slots=True)
class Step:
    """One event to append and the position it leads to (games/store/plan.py)."""

    token: str
    automatic: bool  # the server's event, not the player's
    after: Position
    events: list[Event]


@dataclass(frozen=True, slots=True)
class OpenLog:
    """A game's log under its row lock, at the seq the move expected.

    `answered` is set when the move is a retry: its first answer, to be
    returned as it is, with nothing appended.
    """

    game: LockedGame
    seq: int
    answered: AppendResult | None = None

    @property
    def take_backs(self) -> bool:
        return self.game.race_id is None


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A game closed as it stood by the server's `timeout` event."""

    game_id: int
    player_id: int
    seq: int
    state: GameState


@contextmanager
def game_log_writing(*, game_id: int) -> Iterator[None]:
    """One durable transaction for an append (on SQLite behind this process's writer
    lock); a unique-violation becomes the conflict it means."""
    try:
        with _one_sqlite_writer(), transaction.atomic(durable=True):
            yield
    except IntegrityError:
        # The lock makes this unreachable in the store's own use; a writer
        # that skipped it still cannot break the log, and gets a conflict.
        current = Game.objects.filter(pk=game_id).values_list("last_seq", flat=True).first()
        raise MoveRejected("conflict", _("another move was accepted first"), current or 0) from None


def _one_sqlite_writer() -> AbstractContextManager[object]:
    """On SQLite, queue this process's writers on a lock rather than on the file.

    SQLite lets one writer in at a time; the others poll with growing sleeps
    (up to 100 ms), so threads contending for the file lose most of their
    time sleeping. A process-wide lock hands the file over at once. Other
    processes still queue on the file, as before.
    """
    return _SQLITE_WRITER if connection.vendor == "sqlite" else nullcontext()


def game_log_open(
    *, game_id: int, player: Player, token: str, client_move_id: str, expected_seq: int
) -> OpenLog:
    """Lock the game's log and check a move against it, in the caller's transaction.

    Refuses, in order: a client move id out of bounds, someone else's game (or
    none), a banned player, a reused client move id with another move (or the
    current seq), a stale seq, a finished game. A retry (the id, the move and
    the seq its first attempt expected) comes back with `answered` set.
    """
    if not isinstance(client_move_id, str) or not 0 < len(client_move_id) <= MAX_CLIENT_MOVE_ID:
        raise MoveRejected("invalid", _("a client move id is 1 to 64 characters"), expected_seq)
    game = lock_game(game_id, client_move_id)
    # Someone else's game and no game at all look the same from outside.
    if game is None or game.player_id != player.pk:
        raise MoveRejected("forbidden", _("this is not your game"), game.last_seq if game else 0)
    current = game.last_seq
    if game.player_banned:  # read with the lock, not from the caller's copy
        raise MoveRejected("banned", _("this player is banned"), current)
    reused = (game.reused_seq, game.reused_token, game.reused_automatic)
    if reused[0] is None and expected_seq != current:
        # The lock's statement read the moves as they were before it waited for
        # the lock; a move committed meanwhile (a concurrent retry) is read now.
        found = Move.objects.filter(game_id=game_id, client_move_id=client_move_id)
        reused = found.values_list("seq", "token", "automatic").first() or (None, None, False)
    earlier_seq, earlier_token, earlier_automatic = reused
    if earlier_seq is not None:
        # An id already in the log, checked before anything else so that one
        # mistake gets one answer: the same move sent again with the seq its
        # first attempt expected is a retry and gets the first answer (with the
        # automatic moves after it; a Finish is stored as the moves it played);
        # the id with another move, or with the current seq, is a conflict.
        same = earlier_token == token or (token == FINISH and earlier_automatic)
        if same and expected_seq != current:
            return OpenLog(game, current, _answer_again(game, earlier_seq))
        raise MoveRejected(
            "conflict",
            _("client move id already used for %(token)r") % {"token": earlier_token},
            current,
        )
    if expected_seq != current:
        raise MoveRejected(
            "conflict",
            _("expected seq %(expected)d, the log is at %(current)d")
            % {"expected": expected_seq, "current": current},
            current,
        )
    if game.status != GameStatus.PLAYING:
        raise MoveRejected("finished", messages.game_over(game.status), current)
    return OpenLog(game, current)


def game_log_append(
    *, log: OpenLog, token: str, steps: list[Step], client_move_id: str, now: datetime
) -> AppendResult:
    """Append `steps` (the plan of the player's `token`) after the log's seq, with the
    projection, in the caller's transaction. The first step is stored under the
    player's client move id, the server's after it under ids of their own."""
    assert log.answered is None, "a retry appends nothing"
    assert steps, "a plan has a step"
    seq = log.seq
    events: list[Event] = []
    for i, step in enumerate(steps):
        seq += 1
        move_id = client_move_id if i == 0 else automatic_move_id(seq)
        _record(log.game, seq, step.token, step.after, now, move_id, step.automatic)
        events += step.events
    last = steps[-1].after
    automatic = tuple(step.token for step in steps if step.automatic)
    return AppendResult(log.game.id, seq, token, events, last.state, False, automatic, last.moves)


def game_close_on_time(*, game_id: int, now: datetime) -> TimedOut | None:
    """Close an open game as it stands with the server's `timeout` event, in the
    caller's transaction (its time ran out: the caller's rule). None when the
    game was already over."""
    game = lock_game(game_id)
    if game is None or game.status != GameStatus.PLAYING:
        return None
    after, _ = advance(log_position(game, game.last_seq), TIMEOUT, take_backs=False)
    seq = game.last_seq + 1
    _record(game, seq, TIMEOUT, after, now, f"server-timeout-{seq}", True)
    return TimedOut(game.id, game.player_id, seq, after.state)


def mark_automatic(events: list[Event]) -> list[Event]:
    for event in events:
        event["automatic"] = True
    return events


def _answer_again(game: LockedGame, first_seq: int) -> AppendResult:
    """A retried request's first answer: its event and the automatic ones right after."""
    rows = list(
        Move.objects.filter(game_id=game.id, seq__gte=first_seq)
        .order_by("seq")
        .values_list("seq", "token", "automatic")
    )
    take_backs = game.race_id is None
    position = log_position(game, first_seq - 1)
    events: list[Event] = []
    automatic: list[str] = []
    seq = first_seq
    for i, (row_seq, move, server) in enumerate(rows):
        if i and not server:
            break
        position, more = advance(position, move, take_backs=take_backs)
        events += mark_automatic(more) if server else more
        if server:
            automatic.append(move)
        seq = row_seq
    token = FINISH if rows[0][2] and rows[0][1] != UNDO else rows[0][1]
    return AppendResult(
        game.id,
        seq,
        token,
        events,
        position.state,
        True,
        automatic=tuple(automatic),
        moves=position.moves,
    )


def log_position(game: LockedGame, seq: int) -> Position:
    return game_position_at(
        game_id=game.id, seed=game.seed, variant=game.variant, race=game.race_id, seq=seq
    )


def _record(
    game: LockedGame,
    seq: int,
    token: str,
    after: Position,
    now: datetime,
    client_move_id: str,
    automatic: bool = False,
) -> None:
    """Insert the log row and update the projection, in the caller's transaction."""
    game_id = game.id
    move_id = insert_move(game_id, seq, token, now, client_move_id, automatic)
    state = after.state
    update_projection(
        game_id,
        seq=seq,
        status=after.status,
        cards_played=state.cards_played,
        now=now,
        over=state.is_over,
        elapsed_ms=elapsed_ms(now, game.started_at or now),
    )
    # Stamped with its row, the entry is safe to put before the commit: should
    # the transaction roll back, no reader will match the stamp. Once the row
    # is committed the stamp is dropped, and readers trust the entry outright.
    positions.put(game_id, seq, after, (move_id, now))
    transaction.on_commit(lambda: positions.confirm(game_id, seq))
