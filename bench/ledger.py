"""What the database holds after a run, and the audit of it against the racers' ledgers.

Every move a racer was told is stored must be stored once, with the seq it was
told; nothing may be stored that no racer sent; and every stored move must be
announced: some other racer of its race heard of it in a progress frame (that
racer's seq or a later one, progress being coalesced). `audit` counts each
way that could fail. `outbox` counts the race events (the outbox and its
history) and those not yet published.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class StoredMove:
    game: int
    seq: int
    token: str
    move_id: str


def _query(env: dict[str, str], query: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
    """Rows from the server's database: PostgreSQL, or the SQLite file its URL names."""
    url = env.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(url, connect_timeout=10) as conn:
            return list(conn.execute(query, list(params)).fetchall())
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite") else env["SQLITE_PATH"]
    with sqlite3.connect(path) as conn:
        return list(conn.execute(query.replace("%s", "?"), list(params)).fetchall())


def stored_moves(env: dict[str, str], games: Iterable[int]) -> list[StoredMove]:
    ids = sorted(set(games))
    if not ids:
        return []
    marks = ",".join(["%s"] * len(ids))
    query = f"SELECT game_id, seq, token, client_move_id FROM games_move WHERE game_id IN ({marks})"
    rows = _query(env, query, ids)
    return [StoredMove(int(g), int(s), str(t), str(m)) for g, s, t, m in rows]


@dataclass
class Audit:
    acked_not_stored: int
    stored_twice: int
    stored_never_sent: int
    recovered: int  # stored, its answer lost with the socket; the retry got it (duplicate)
    stored_unanswered: int  # stored, but the racer never got an answer
    stored: int
    acked: int
    # Stored, and no other racer of its race heard of it in a progress frame.
    stored_never_announced: int = 0

    @property
    def ok(self) -> bool:
        return not (self.acked_not_stored or self.stored_twice or self.stored_never_sent)

    @property
    def announced(self) -> bool:
        return not self.stored_never_announced

    def lines(self) -> list[str]:
        return [
            f"  acknowledged, not stored {self.acked_not_stored:>8}",
            f"  stored twice             {self.stored_twice:>8}",
            f"  stored, never sent       {self.stored_never_sent:>8}",
            f"  stored, never announced  {self.stored_never_announced:>8}",
            f"  recovered                {self.recovered:>8}"
            "  (stored, answer lost with the socket, acknowledged on the retry)",
            f"  stored, never answered   {self.stored_unanswered:>8}",
            f"  stored / acknowledged    {self.stored:>8} / {self.acked}",
        ]


class Ledgered(Protocol):
    """What the audit reads of a racer (a Racer, or its record from another process)."""

    @property
    def game(self) -> int | None: ...
    @property
    def ledger(self) -> Mapping[str, Any]: ...
    @property
    def acked(self) -> Mapping[str, int]: ...
    @property
    def duplicates(self) -> AbstractSet[str]: ...
    @property
    def code(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def heard(self) -> Mapping[int, int]: ...


@dataclass
class RacerRecord:
    """What the audit needs of a racer, sent back from a client process."""

    game: int | None
    ledger: dict[str, Any]
    acked: dict[str, int]
    duplicates: set[str]
    code: str
    player: int
    heard: dict[int, int]


def record_of(racer: Any) -> RacerRecord:
    """A racer's ledger, small enough to send back (a `bench.racers.Racer`)."""
    return RacerRecord(
        racer.game,
        {k: v.attempts for k, v in racer.ledger.items()},
        racer.acked,
        racer.duplicates,
        racer.code,
        racer.player,
        racer.heard,
    )


def audit(racers: Sequence[Ledgered], rows: Sequence[StoredMove]) -> Audit:
    """Compare what the racers sent and were told with what the database holds."""
    by_game: dict[int, list[StoredMove]] = {}
    for row in rows:
        if row.token != "timeout":  # the server's own event when time runs out
            by_game.setdefault(row.game, []).append(row)
    acked_not_stored = stored_twice = never_sent = recovered = unanswered = stored = acked = 0
    for racer in racers:
        if racer.game is None:
            continue
        mine = by_game.get(racer.game, [])
        stored += len(mine)
        # A racer's move ids are one per move of its recorded game, so a move
        # stored twice would show as an id stored twice.
        ids = Counter(r.move_id for r in mine)
        stored_twice += sum(n - 1 for n in ids.values() if n > 1)
        seq_of = {r.move_id: r.seq for r in mine}
        for move_id, seq in racer.acked.items():
            acked += 1
            if seq_of.get(move_id) != seq:
                acked_not_stored += 1
        never_sent += sum(1 for r in mine if r.move_id not in racer.ledger)
        recovered += sum(1 for r in mine if r.move_id in racer.duplicates)
        unanswered += sum(
            1 for r in mine if r.move_id in racer.ledger and r.move_id not in racer.acked
        )
    never_announced = _never_announced(racers, by_game)
    return Audit(
        acked_not_stored,
        stored_twice,
        never_sent,
        recovered,
        unanswered,
        stored,
        acked,
        never_announced,
    )


def _never_announced(racers: Sequence[Ledgered], by_game: dict[int, list[StoredMove]]) -> int:
    """Stored moves of which no other racer of the race heard in a progress frame."""
    heard_in_race: dict[str, dict[int, int]] = {}  # race code -> player -> best seq heard
    for racer in racers:
        best = heard_in_race.setdefault(racer.code, {})
        for player, seq in racer.heard.items():
            if player != racer.player:
                best[player] = max(best.get(player, 0), seq)
    count = 0
    for racer in racers:
        if racer.game is None:
            continue
        told = heard_in_race.get(racer.code, {}).get(racer.player, 0)
        count += sum(1 for row in by_game.get(racer.game, []) if row.seq > told)
    return count


def race_versions(env: dict[str, str], codes: Iterable[str]) -> dict[str, int]:
    wanted = sorted(set(codes))
    marks = ",".join(["%s"] * len(wanted))
    rows = _query(env, f"SELECT code, version FROM games_race WHERE code IN ({marks})", wanted)
    return {str(c): int(v) for c, v in rows}


@dataclass
class Outbox:
    """The race events table: the outbox (rows not yet published) and the history kept."""

    rows: int
    unpublished: int
    oldest_unpublished_s: float  # 0 when every row is published

    def line(self) -> str:
        return (
            f"outbox {self.rows} rows, {self.unpublished} unpublished"
            f" (oldest {self.oldest_unpublished_s:.1f} s)"
        )


def outbox(env: dict[str, str]) -> Outbox:
    query = (
        "SELECT COUNT(*), SUM(CASE WHEN published_at IS NULL THEN 1 ELSE 0 END),"
        " MIN(CASE WHEN published_at IS NULL THEN created_at END) FROM games_raceevent"
    )
    rows, unpublished, oldest = _query(env, query, [])[0]
    age = 0.0
    if oldest is not None:
        # PostgreSQL answers an aware datetime; SQLite the UTC text Django stored.
        at = oldest if isinstance(oldest, datetime) else datetime.fromisoformat(str(oldest))
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        age = max(0.0, (datetime.now(UTC) - at).total_seconds())
    return Outbox(int(rows), int(unpublished or 0), age)
