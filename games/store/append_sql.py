"""The append path's statements, written out.

A move is the hot path of the whole service: every racer's every click. The
ORM spends more time composing these few statements than the database spends
running them, so they are plain SQL, each one fixed, over the tables the
models define. Reads elsewhere stay with the ORM. The race's row has its own
statement, in its own room (games/races/outbox.bump_race).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils.dateparse import parse_datetime

from games.models import Game, Move, Player

_GAME, _MOVE = Game._meta.db_table, Move._meta.db_table
_PLAYER = Player._meta.db_table


@dataclass(frozen=True, slots=True)
class LockedGame:
    id: int
    player_id: int
    race_id: int | None
    seed: int
    variant: str
    status: str
    last_seq: int
    started_at: datetime | None
    player_banned: bool
    # The move already stored under the client move id asked about, if any.
    reused_seq: int | None = None
    reused_token: str | None = None
    reused_automatic: bool = False

    @property
    def started(self) -> bool:
        return self.started_at is not None


def lock_game(game_id: int, client_move_id: str = "") -> LockedGame | None:
    """The game's row, locked until the transaction ends (SQLite: the whole file is),
    and the move already stored under `client_move_id`, in the same round trip."""
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.id, g.player_id, g.race_id, g.seed, g.variant, g.status, g.last_seq, "
            f"g.started_at, p.banned_at IS NOT NULL, m.seq, m.token, "
            f"m.automatic "
            f"FROM {_GAME} g JOIN {_PLAYER} p ON p.id = g.player_id "
            f"LEFT JOIN {_MOVE} m ON m.game_id = g.id AND m.client_move_id = %s "
            f"WHERE g.id = %s{lock}",
            [client_move_id, game_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    game_id_, player_id, race_id, seed, variant, status, last_seq, started_at, banned = row[:9]
    return LockedGame(
        game_id_,
        player_id,
        race_id,
        seed,
        variant,
        status,
        last_seq,
        db_datetime(started_at),
        bool(banned),
        row[9],
        row[10],
        bool(row[11]),
    )


def insert_move(
    game_id: int,
    seq: int,
    token: str,
    accepted_at: datetime,
    client_move_id: str,
    automatic: bool = False,
) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_MOVE} (game_id, seq, token, accepted_at, client_move_id, automatic) "
            f"VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            [game_id, seq, token, _param(accepted_at), client_move_id, automatic],
        )
        return int(cursor.fetchone()[0])


def update_projection(
    game_id: int,
    *,
    seq: int,
    status: str,
    cards_played: int,
    now: datetime,
    over: bool,
    elapsed_ms: int | None,
) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            # SET's right-hand sides read the row as it was: the count before this move.
            f"UPDATE {_GAME} SET last_seq = %s, status = %s, cards_played = %s, "
            f"finished_at = %s, started_at = COALESCE(started_at, %s), "
            f"count_reached_ms = CASE WHEN cards_played = %s THEN count_reached_ms ELSE %s END "
            f"WHERE id = %s",
            [
                seq,
                status,
                cards_played,
                _param(now) if over else None,
                _param(now),
                cards_played,
                elapsed_ms,
                game_id,
            ],
        )


def _param(moment: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(moment)


def db_datetime(value: Any) -> datetime | None:
    """A timestamp as the driver returns it: aware on PostgreSQL; naive UTC or text on SQLite."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(str(value))
    assert parsed is not None, value
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
