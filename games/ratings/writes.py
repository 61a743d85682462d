"""The replay's writes in plain SQL: a rebuild writes a row per racer per race
(300,000 for 100,000 races), and the ORM's bulk_create spent more time building
model instances than the database spent storing them (bench/ratings.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from django.db import connection

from games.ratings.models import Rating, RatingChange

_BATCH: Final = 2000
_CHANGE_COLUMNS: Final = (
    "player_id",
    "variant",
    "race_id",
    "game_id",
    "at",
    "mu",
    "sigma",
    "rating",
    "delta",
    "rank",
    "placed",
    "established",
)
_RATING_COLUMNS: Final = (
    "player_id",
    "variant",
    "mu",
    "sigma",
    "rating",
    "races",
    "last_race_at",
    "established",
)


def ratings_write(
    *, changes: Sequence[tuple[object, ...]], ratings: Sequence[tuple[object, ...]]
) -> None:
    """Insert RatingChange rows (in `_CHANGE_COLUMNS` order) and insert or update Rating
    rows (in `_RATING_COLUMNS` order), in the caller's transaction."""
    adapted: dict[object, object] = {}  # a race's moment is every one of its racers'
    at = _CHANGE_COLUMNS.index("at")
    last = _RATING_COLUMNS.index("last_race_at")
    _insert(
        RatingChange._meta.db_table,
        _CHANGE_COLUMNS,
        [_with_datetime(row, at, adapted) for row in changes],
        "",
    )
    updates = ", ".join(f"{c} = excluded.{c}" for c in _RATING_COLUMNS[2:])
    _insert(
        Rating._meta.db_table,
        _RATING_COLUMNS,
        [_with_datetime(row, last, adapted) for row in ratings],
        f" ON CONFLICT (player_id, variant) DO UPDATE SET {updates}",
    )


def _with_datetime(
    row: tuple[object, ...], index: int, adapted: dict[object, object]
) -> tuple[object, ...]:
    value = row[index]
    if value not in adapted:
        assert isinstance(value, datetime)
        adapted[value] = connection.ops.adapt_datetimefield_value(value)
    return (*row[:index], adapted[value], *row[index + 1 :])


def _insert(table: str, columns: Sequence[str], rows: list[tuple[object, ...]], tail: str) -> None:
    if not rows:
        return
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    one = ", ".join(["%s"] * len(columns))
    # One row's statement, many times: psycopg parses it once and pipelines the rows;
    # a statement of 2,000 rows' placeholders cost it more to parse than to run.
    sql = f"INSERT INTO {table} ({quoted}) VALUES ({one}){tail}"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), _BATCH):
            chunk: list[Any] = rows[start : start + _BATCH]
            cursor.executemany(sql, chunk)
