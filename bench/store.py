"""Appends per second through the store's service, and the cost of loading a state.

For each backend (SQLite in a temporary file, as configured in settings:
WAL + IMMEDIATE transactions; PostgreSQL in a dedicated `sultan_bench`
database) it measures `game_append_move`:
  - one writer appending to one game;
  - several writers (threads, each its own connection) appending to their own
    games at once, as racers do;
and `game_state` on games of 10, 100 and 1,000 events: cold (the process's
cache empty: the whole log is replayed), warm (the cache holds the position:
one query checks it) and one behind (another process appended one event).

    .venv/bin/python bench/store.py [--appends 1000] [--writers 4] [--backends sqlite postgresql]

Each backend runs in a child process, because Django's settings are per process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH_URL = "postgres://postgres@127.0.0.1:5432/sultan_bench"


def _tokens(n: int) -> list[str]:
    # draw, undo, draw, undo...: a practice log that never ends, however long.
    return ["draw" if i % 2 == 0 else "undo" for i in range(n)]


def run_backend(appends: int, writers: int) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from games.accounts.services import player_create_guest
    from games.models import Game
    from games.store.cache import positions
    from games.store.selectors import game_position, game_state
    from games.store.services import game_append_move, game_create

    call_command("migrate", verbosity=0)
    vendor = connection.vendor
    player = player_create_guest(nickname="bench")

    def append_many(game: Game, count: int, tag: str) -> None:
        for seq, token in enumerate(_tokens(count)):
            game_append_move(
                game_id=game.pk,
                player=player,
                token=token,
                client_move_id=f"{tag}-{seq}",
                expected_seq=seq,
            )

    # One writer.
    game = game_create(player=player, variant="sultan", seed=1)
    start = time.perf_counter()
    append_many(game, appends, "solo")
    solo = appends / (time.perf_counter() - start)
    print(f"{vendor:<11} 1 writer : {solo:8.0f} appends/s ({appends} appends)")

    # Several writers, each on its own game.
    games = [game_create(player=player, variant="sultan", seed=s) for s in range(writers)]
    barrier = threading.Barrier(writers)

    def writer(g: Game) -> None:
        try:
            barrier.wait()
            append_many(g, appends, "many")
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(g,)) for g in games]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    many = writers * appends / (time.perf_counter() - start)
    print(f"{vendor:<11} {writers} writers: {many:8.0f} appends/s ({writers} x {appends} appends)")

    # Load cost by log length.
    print(f"{vendor:<11} load cost (median ms): events  cold   warm   one behind")
    for events in (10, 100, 1000):
        g = game_create(player=player, variant="sultan", seed=7)
        append_many(g, events, f"load{events}")
        g.refresh_from_db()
        cold, warm, behind = [], [], []
        for _ in range(15):
            positions.clear()
            t0 = time.perf_counter()
            game_state(game=g)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            game_state(game=g)
            warm.append(time.perf_counter() - t0)
            # As if another process appended the last event: the cache holds the one before.
            positions.clear()
            game_position(game=g, seq=g.last_seq - 1)
            t0 = time.perf_counter()
            game_state(game=g)
            behind.append(time.perf_counter() - t0)
        print(
            f"{vendor:<11} {'':>25}{events:>6} "
            f"{statistics.median(cold) * 1e3:6.2f} {statistics.median(warm) * 1e3:6.2f} "
            f"{statistics.median(behind) * 1e3:6.2f}"
        )


def _ensure_pg_database() -> None:
    import psycopg

    url = PG_ADMIN_URL.replace("postgres://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = 'sultan_bench'").fetchone():
            c.execute("CREATE DATABASE sultan_bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_backend(args.appends, args.writers)
        return
    for backend in args.backends:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        with tempfile.TemporaryDirectory() as tmp:
            if backend == "sqlite":
                env["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
            else:
                _ensure_pg_database()
                env["DATABASE_URL"] = PG_BENCH_URL
            child = [sys.executable, __file__, "--child", f"--appends={args.appends}"]
            subprocess.run([*child, f"--writers={args.writers}"], env=env, check=True)


if __name__ == "__main__":
    main()
