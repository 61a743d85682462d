"""Writes to the event store: games, and the paths that append to a game's log.

Three functions write a log: `game_append_move` (a player's move, undo or
resignation), `game_close_on_time` (the server's `timeout` when a race's clock
runs out, or a tournament racer's time for a first move) and
`game_import_record` (a verified record, from the operator's shell). Each
writes the log and its projection (status, cards played, finish time, last
seq) in one durable transaction and returns after the commit, so
`transaction.on_commit` hooks have run by the time the caller sees it.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from typing import Final, ParamSpec

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.engine import (
    SEED_LIMIT,
    UNDO,
    VARIANTS,
    GameState,
    IllegalMove,
    InvalidMove,
    safe_run,
)
from games.engine.positions import LOG_EVENTS, RESIGN, TIMEOUT, Event, Position, advance, walk_log
from games.i18n import messages
from games.models import Game, GameStatus, Move, Player, Race, RaceStatus
from games.store.append_sql import (
    LockedGame,
    RaceClock,
    bump_race,
    insert_move,
    lock_game,
    update_projection,
)
from games.store.automatic import (
    FINISH,
    automatic_move_id,
    finish_moves,
    undos_for,
)
from games.store.cache import positions
from games.store.records import VerifiedRecord, accepted_times
from games.store.selectors import game_position_at
from games.store.timing import elapsed_ms

P = ParamSpec("P")

MAX_CLIENT_MOVE_ID: Final = 64
# (race version, seq, state after the move), inside the move's transaction.
RaceHook = Callable[[int, int, GameState], None]
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
    # A race game's move takes the race's next version in the same transaction.
    race_version: int | None = None
    # The events the server appended after (or, for Finish, instead of) the
    # player's: `seq` is the last of them, and `events` holds theirs too,
    # each marked `"automatic": true`.
    automatic: tuple[str, ...] = ()
    moves: int = 0  # made and not taken back, after this event


# Games --------------------------------------------------------------------


def game_create(
    *, player: Player, variant: str, seed: int | None = None, race: Race | None = None
) -> Game:
    """A new game. A race game takes the race's deal; one game per player per race."""
    if race is not None:
        if (seed is not None and seed != race.seed) or variant != race.variant:
            raise ValueError("a race game plays the race's variant and deal")
        seed = race.seed
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    started_at = timezone.now() if race is None else race.starts_at
    return Game.objects.create(
        player=player, variant=variant, seed=seed, race=race, started_at=started_at
    )


def _race_gate(race: RaceClock, now: datetime, current_seq: int) -> None:
    if race.status == RaceStatus.FINISHED:
        raise MoveRejected("finished", _("the race is over"), current_seq)
    if race.status != RaceStatus.RUNNING or race.starts_at is None or now < race.starts_at:
        raise MoveRejected("not_started", _("the race has not started"), current_seq)
    if now >= race.starts_at + timedelta(seconds=race.time_limit_s):
        raise MoveRejected("too_late", _("the race's time is up"), current_seq)


def _in_one_transaction(append: Callable[P, AppendResult]) -> Callable[P, AppendResult]:
    """Run an append in a transaction of its own, on SQLite behind this process's
    writer lock; a unique-violation becomes the conflict it means."""

    @wraps(append)
    def run(*args: P.args, **kwargs: P.kwargs) -> AppendResult:
        try:
            with _one_sqlite_writer(), transaction.atomic(durable=True):
                return append(*args, **kwargs)
        except IntegrityError:
            # The lock makes this unreachable in the store's own use; a writer
            # that skipped it still cannot break the log, and gets a conflict.
            game_id = kwargs["game_id"]
            assert isinstance(game_id, int)
            current = Game.objects.filter(pk=game_id).values_list("last_seq", flat=True).first()
            raise MoveRejected(
                "conflict", _("another move was accepted first"), current or 0
            ) from None

    return run


@_in_one_transaction
def game_append_move(
    *,
    game_id: int,
    player: Player,
    token: str,
    client_move_id: str,
    expected_seq: int,
    automatic_moves: bool = False,
    on_race_version: RaceHook | None = None,
) -> AppendResult:
    """Append one event (a move, `undo`, `resign` or `finish`) to a game's log.

    With automatic moves on (a practice player's setting; in a race the race's,
    whatever is asked), the safe moves that follow a move are appended with it.
    An `undo` takes back the player's last move with the automatic moves after
    it. `finish` appends the moves that play the game out
    (games.engine.safe). Raises MoveRejected, having written nothing. A retry
    with a client move id already in the log returns the original result
    (duplicate=True). `on_race_version(version, seq, state)` runs inside the
    transaction when a race game's move took the race's next version, with the
    last event appended and the state after it: the race's announcement of it
    commits with it (games.races.outbox).
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
    take_backs = game.race_id is None
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
            return _answer_again(game, earlier_seq, take_backs=take_backs)
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
    now = timezone.now()
    race_version = None
    if game.race_id is not None:
        # Games before races: the order every writer locks them in.
        clock = bump_race(game.race_id)
        _race_gate(clock, now, current)
        race_version = clock.version
        automatic_moves = clock.automatic_moves
    if token == TIMEOUT:
        raise MoveRejected("invalid", _("timeout is the server's event, not a move"), current)
    position = _position(game, current)
    planned = [(token, False)]
    if token == FINISH:
        line = finish_moves(position.state)
        if not line:
            raise MoveRejected(
                "illegal", _("Moves remain that are yours to choose: no Finish yet"), current
            )
        planned = [(move, True) for move in line]
    elif token == UNDO and take_backs:
        # Whatever the setting now: the log says which moves the server made.
        planned += [(UNDO, True)] * (undos_for(game_id) - 1)
    try:
        after, events = advance(position, planned[0][0], take_backs=take_backs)
    except InvalidMove:
        raise MoveRejected("invalid", messages.not_a_move(token), current) from None
    except IllegalMove as error:
        raise MoveRejected("illegal", messages.refused_move(error), current) from None
    seq = current + 1
    _record(game, seq, planned[0][0], after, now, client_move_id, planned[0][1])
    if planned[0][1]:
        _mark_automatic(events)
    if automatic_moves and token not in LOG_EVENTS and token != FINISH:
        planned += [(move, True) for move in safe_run(after.state)]
    for move, _server in planned[1:]:
        after, more = advance(after, move, take_backs=take_backs)
        seq += 1
        _record(game, seq, move, after, now, automatic_move_id(seq), True)
        events += _mark_automatic(more)
    if race_version is not None and on_race_version is not None:
        # One version for the player's move and the server's after it: the
        # race hears of them together, as the player's answer tells of them.
        on_race_version(race_version, seq, after.state)
    automatic = tuple(move for move, server in planned if server)
    return AppendResult(
        game_id, seq, token, events, after.state, False, race_version, automatic, after.moves
    )


def _one_sqlite_writer() -> AbstractContextManager[object]:
    """On SQLite, queue this process's writers on a lock rather than on the file.

    SQLite lets one writer in at a time; the others poll with growing sleeps
    (up to 100 ms), so threads contending for the file lose most of their
    time sleeping. A process-wide lock hands the file over at once. Other
    processes still queue on the file, as before.
    """
    return _SQLITE_WRITER if connection.vendor == "sqlite" else nullcontext()


def game_resign(
    *, game_id: int, player: Player, client_move_id: str, expected_seq: int
) -> AppendResult:
    return game_append_move(
        game_id=game_id,
        player=player,
        token=RESIGN,
        client_move_id=client_move_id,
        expected_seq=expected_seq,
    )


def _mark_automatic(events: list[Event]) -> list[Event]:
    for event in events:
        event["automatic"] = True
    return events


def _answer_again(game: LockedGame, first_seq: int, *, take_backs: bool) -> AppendResult:
    """A retried request's first answer: its event and the automatic ones right after."""
    rows = list(
        Move.objects.filter(game_id=game.id, seq__gte=first_seq)
        .order_by("seq")
        .values_list("seq", "token", "automatic")
    )
    position = _position(game, first_seq - 1)
    events: list[Event] = []
    automatic: list[str] = []
    seq = first_seq
    for i, (row_seq, move, server) in enumerate(rows):
        if i and not server:
            break
        position, more = advance(position, move, take_backs=take_backs)
        events += _mark_automatic(more) if server else more
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


def _position(game: LockedGame, seq: int) -> Position:
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


def game_close_on_time(
    *, game_id: int, now: datetime, on_race_version: RaceHook | None = None
) -> bool:
    """Close an open race game whose time ran out, as it stands: a `timeout` event.

    The race's clock ran out (the race's closing), or its racer's: a tournament's
    racer with no move of their own in the time it allows. Runs inside the
    caller's transaction. With `on_race_version`, the race's next version is taken
    (games before races, as every writer locks them) and the hook records the
    announcement. False when the game was already over.
    """
    game = lock_game(game_id)
    if game is None or game.status != GameStatus.PLAYING:
        return False
    version = bump_race(game.race_id).version if on_race_version and game.race_id else None
    after, _ = advance(_position(game, game.last_seq), TIMEOUT, take_backs=False)
    seq = game.last_seq + 1
    _record(game, seq, TIMEOUT, after, now, f"server-timeout-{seq}", True)
    if version is not None and on_race_version is not None:
        on_race_version(version, seq, after.state)
    return True


def game_import_record(*, record: VerifiedRecord, player: Player, started_at: datetime) -> Game:
    """Store a verified record as a new practice game of `player`.

    The moves keep the record's timing from `started_at`. A race cannot be
    rebuilt from a record, so a race record's game is stored without one
    (and, having been verified as a race, contains no `undo`).
    """
    times = accepted_times(started_at, record.moves)
    with transaction.atomic():
        game = Game.objects.create(
            player=player, variant=record.variant, seed=record.seed, started_at=started_at
        )
        Move.objects.bulk_create(
            Move(
                game=game, seq=m.seq, token=m.token, accepted_at=t, client_move_id=f"import-{m.seq}"
            )
            for m, t in zip(record.moves, times, strict=True)
        )
        over = record.position.state.is_over
        game.count_reached_ms = _count_reached_ms(record, times, started_at)
        game.last_seq = len(record.moves)
        game.status = record.position.status
        game.cards_played = record.position.state.cards_played
        game.finished_at = times[-1] if over else None
        game.save(
            update_fields=["last_seq", "status", "cards_played", "finished_at", "count_reached_ms"]
        )
    return game


def _count_reached_ms(
    record: VerifiedRecord, times: list[datetime], started_at: datetime
) -> int | None:
    log = zip((m.token for m in record.moves), times, strict=True)
    reached = walk_log(record.seed, record.variant, log, take_backs=True).count_reached
    return elapsed_ms(reached, started_at)
