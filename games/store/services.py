"""Writes to the event store: games, and the paths that append to a game's log.

Three functions write a log: `game_append_move` (a practice player's move,
undo or resignation: the bare append of games/store/append.py with the plan of
games/store/plan.py), `append.game_close_on_time` (the server's `timeout`, for
a caller whose clock ran out) and `game_import_record` (a verified record,
from the operator's shell). A race's moves take the same two steps with the
race's own checks between them (games/races/moves.py): the store knows logs,
not races. Each writes the log and its projection (status, cards played,
finish time, last seq) in one durable transaction and returns after the
commit, so `transaction.on_commit` hooks have run by the time the caller sees it.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import SEED_LIMIT, VARIANTS
from games.engine.positions import RESIGN, walk_log
from games.models import Game, Move, Player, Race

# Re-exported: where the rooms above have always found the append's answer and refusal.
from games.store.append import AppendResult as AppendResult
from games.store.append import MoveRejected as MoveRejected
from games.store.append import game_log_append, game_log_open, game_log_writing
from games.store.plan import move_plan
from games.store.records import VerifiedRecord, accepted_times
from games.store.timing import elapsed_ms

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


def game_append_move(
    *,
    game_id: int,
    player: Player,
    token: str,
    client_move_id: str,
    expected_seq: int,
    automatic_moves: bool = False,
) -> AppendResult:
    """Append one event (a move, `undo`, `resign` or `finish`) to a practice game's log.

    With automatic moves on (the player's setting), the safe moves that follow
    a move are appended with it. An `undo` takes back the player's last move
    with the automatic moves after it. `finish` appends the moves that play the
    game out (games.engine.safe). Raises MoveRejected, having written nothing.
    A retry with a client move id already in the log returns the original
    result (duplicate=True). A race game's moves are the race's to check and
    announce: they go through games.races.moves.race_move, never here.
    """
    with game_log_writing(game_id=game_id):
        log = game_log_open(
            game_id=game_id,
            player=player,
            token=token,
            client_move_id=client_move_id,
            expected_seq=expected_seq,
        )
        if log.game.race_id is not None:
            raise ValueError("a race game's moves go through games.races.moves.race_move")
        if log.answered is not None:
            return log.answered
        steps = move_plan(log=log, token=token, automatic_moves=automatic_moves)
        return game_log_append(
            log=log, token=token, steps=steps, client_move_id=client_move_id, now=timezone.now()
        )


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
