"""Head-to-head (games/friends/headtohead.py) at 10,000 players and 1,000,000 races.

Fills a store with `--players` players and `--races` finished two-racer races
between random pairs (rows written straight through the cursor, in batches),
with `--shared` more between players 1 and 2; then times `head_to_head(1, 2)`
(`--runs` runs: median and worst) against two baselines measured in the same run:

  - a plain count of player 1's games (the least any per-player read costs);
  - the same head-to-head with the index `game_player_race` dropped;

and prints EXPLAIN of the counting query with the index. On the embedded
SQLite (a temporary file) unless DATABASE_URL names a database to fill
(it must be empty: the bench migrates it and writes into it).

    .venv/bin/python bench/head_to_head.py [--players 10000] [--races 1000000] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 20_000


def _fill(players: int, races: int, shared: int) -> None:
    from django.db import connection, transaction

    from games.models import Game, Player, Race
    from games.races.models import RaceStanding

    rng = random.Random(24)
    adapt = connection.ops.adapt_datetimefield_value
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")
    now = datetime.now(tz=UTC)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {Player._meta.db_table} (id, nickname, created_at, is_bot,"
            " nickname_chosen) VALUES (%s, %s, %s, %s, %s)",
            [(p, f"player{p}", adapt(now), False, True) for p in range(1, players + 1)],
        )
    pairs = [
        (1, 2) if i < shared else tuple(rng.sample(range(1, players + 1), 2))
        for i in range(races + shared)
    ]
    race_sql = (
        f"INSERT INTO {Race._meta.db_table} (id, code, host_id, variant, seed, open_deal,"
        " winnable_deal, automatic_moves, time_limit_s, seat_limit, status, created_at,"
        " starts_at, ends_at, finished_at, version, public, rated)"
        " VALUES (%s, %s, %s, 'sultan', %s, false, false, false, 900, 8, 'finished', %s, %s, %s,"
        " %s, 1, false, false)"
    )
    game_sql = (
        f"INSERT INTO {Game._meta.db_table} (id, player_id, race_id, variant, seed, created_at,"
        " started_at, status, cards_played, finished_at, last_seq, voided, flagged)"
        " VALUES (%s, %s, %s, 'sultan', %s, %s, %s, 'resigned', %s, %s, 1, false, false)"
    )
    standing_sql = (
        f"INSERT INTO {RaceStanding._meta.db_table} (id, race_id, game_id, rank, place)"
        " VALUES (%s, %s, %s, %s, %s)"
    )
    for start in range(0, len(pairs), BATCH):
        rows_r, rows_g, rows_s = [], [], []
        for race_id in range(start + 1, min(start + BATCH, len(pairs)) + 1):
            a, b = pairs[race_id - 1]
            at = adapt(now - timedelta(minutes=race_id))
            seed = rng.randrange(2**62)
            rows_r.append((race_id, f"b{race_id}", a, seed, at, at, at, at))
            first = rng.random() < 0.5
            for k, player in enumerate((a, b)):
                game_id = 2 * race_id - 1 + k
                rows_g.append((game_id, player, race_id, seed, at, at, 10 + k, at))
                rank = 1 if (k == 0) == first else 2
                rows_s.append((game_id, race_id, game_id, rank, rank))
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(race_sql, rows_r)
            cursor.executemany(game_sql, rows_g)
            cursor.executemany(standing_sql, rows_s)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    if connection.vendor == "postgresql":
        for table in (Player, Race, Game, RaceStanding):
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table._meta.db_table}', 'id'),"
                    f" (SELECT max(id) FROM {table._meta.db_table}))"
                )


def _time(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    fn()  # warm: the first run reads pages from disk
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--races", type=int, default=1_000_000)
    parser.add_argument("--shared", type=int, default=120)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="2,000 players and 50,000 races")
    args = parser.parse_args()
    if args.quick:
        args.players, args.races = 2_000, 50_000
    if not os.environ.get("DATABASE_URL"):
        store = Path(tempfile.mkdtemp(prefix="sultan-bench-h2h-")) / "bench.sqlite3"
        os.environ["SQLITE_PATH"] = str(store)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from games.friends.headtohead import _shared_races, head_to_head
    from games.models import Game, Player

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    _fill(args.players, args.races, args.shared)
    print(
        f"{connection.vendor}: {args.players:,} players, {args.races + args.shared:,} races,"
        f" {Game.objects.count():,} games; filled in {time.perf_counter() - start:.1f} s"
    )
    alice, bob = Player.objects.get(pk=1), Player.objects.get(pk=2)
    record = head_to_head(me=alice, other=bob)
    print(f"player 1 and 2: {record.races} races, 1 ahead in {record.ahead}, 2 in {record.behind}")

    def h2h() -> object:
        return head_to_head(me=alice, other=bob)

    def count() -> object:
        return Game.objects.filter(player=alice).count()

    def counts() -> object:
        return _shared_races(alice, [bob.pk]).count()

    indexed, indexed_worst = _time(h2h, args.runs)
    counted, counted_worst = _time(counts, args.runs)
    plain, plain_worst = _time(count, args.runs)
    query = _shared_races(alice, [bob.pk]).values("pk")
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        explain = "EXPLAIN ANALYZE " if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN "
        cursor.execute(explain + sql, params)
        plan = "\n".join("  " + " ".join(str(c) for c in row) for row in cursor.fetchall())
        cursor.execute("DROP INDEX game_player_race")
        cursor.execute("ANALYZE")
    dropped, dropped_worst = _time(h2h, args.runs)
    print(
        f"head_to_head, indexed:          median {indexed:7.2f} ms, worst {indexed_worst:7.2f} ms"
    )
    print(
        f"the shared races' count alone:  median {counted:7.2f} ms, worst {counted_worst:7.2f} ms"
    )
    print(f"baseline, a plain count:        median {plain:7.2f} ms, worst {plain_worst:7.2f} ms")
    print(
        f"baseline, index dropped:        median {dropped:7.2f} ms, worst {dropped_worst:7.2f} ms"
    )
    print(
        f"ratio indexed / plain count: {indexed / plain:.1f}x;"
        f" index dropped / indexed: {dropped / indexed:.1f}x"
    )
    print("EXPLAIN of the shared races, indexed:\n" + plan)


if __name__ == "__main__":
    main()
