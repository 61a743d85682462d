"""A backup of a running service's PostgreSQL database (deploy/pg_backup.sh, `make backup`)
restores into an empty database where verify_games is clean and every game replays to
what it was; a restore never writes over a database that has tables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.positions import Position, advance
from tests.servers import daphne
from tests.services import fresh_postgres_database, needs_postgres

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "pg_backup.sh"

pytestmark = [
    needs_postgres,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres") and not os.environ.get("CI"),
        reason="backups are of PostgreSQL: set DATABASE_URL to a PostgreSQL database",
    ),
]


def _env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "sultan_site.settings",
        "DATABASE_URL": database_url,
        **extra,
    }


def _python(database_url: str, code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=_env(database_url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _manage(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_env(database_url),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _games(url: str) -> dict[int, dict[str, Any]]:
    """Every game with its log and its replay through the engine."""
    import psycopg

    with psycopg.connect(url) as conn:
        games = conn.execute(
            "SELECT id, seed, variant, status, cards_played, last_seq, voided, flagged,"
            " player_id, race_id FROM games_game ORDER BY id"
        ).fetchall()
        moves = conn.execute(
            "SELECT game_id, seq, token, accepted_at, client_move_id FROM games_move"
            " ORDER BY game_id, seq"
        ).fetchall()
    log: dict[int, list[tuple[Any, ...]]] = {}
    for row in moves:
        log.setdefault(row[0], []).append(row[1:])
    return {
        g[0]: {
            "row": g,
            "log": log.get(g[0], []),
            # Practice games may take moves back; race games may not.
            "replay": _replay(g[1], g[2], [m[1] for m in log.get(g[0], [])], g[9] is None),
        }
        for g in games
    }


def _replay(seed: int, variant: str, tokens: list[str], take_backs: bool) -> Any:
    """Each event as the store steps it (a resignation included)."""
    position = Position.start(seed, variant)
    for token in tokens:
        position, _ = advance(position, token, take_backs=take_backs)
    return position.state


def _rows(url: str, table: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()


def _backup_script(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(SCRIPT), *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_backup_of_the_running_service_restores_into_an_empty_database(tmp_path: Path):
    with fresh_postgres_database("backup_source") as source:
        assert _manage(source, "migrate", "--noinput", "-v0").returncode == 0
        counts = _python(source, "from tests.deploy.backup_data import populate; print(populate())")
        assert "'games': 8" in counts, counts
        with daphne(_env(source)) as server:
            # Taken from the service while it runs: pg_dump reads one snapshot
            # and holds no lock a page or a move would wait on.
            backup = _backup_script("backup", DATABASE_URL=source, BACKUP_DIR=str(tmp_path))
            assert backup.returncode == 0, backup.stderr
            assert server.process.poll() is None
        dump = Path(backup.stdout.strip().splitlines()[-1])
        assert dump.name.startswith("sultan-")
        assert dump.suffix == ".dump"
        assert not list(tmp_path.glob("*.partial"))
        before = _games(source)
        moderation_before = _rows(source, "games_moderationaction")
        races_before = _rows(source, "games_race")

        with fresh_postgres_database("backup_copy") as copy:
            restore = _backup_script("restore", str(dump), RESTORE_URL=copy)
            assert restore.returncode == 0, restore.stderr
            verify = _manage(copy, "verify_games")
            assert verify.returncode == 0, verify.stdout + verify.stderr
            assert "8 games replayed, 0 with mismatches" in verify.stdout
            after = _games(copy)
            assert after.keys() == before.keys()
            for game_id, game in before.items():
                assert after[game_id]["row"] == game["row"], game_id
                assert after[game_id]["log"] == game["log"], game_id
                assert after[game_id]["replay"] == game["replay"], game_id
            assert _rows(copy, "games_moderationaction") == moderation_before
            assert len(moderation_before) == 3
            assert _rows(copy, "games_race") == races_before
            # The append-only triggers came back with the data.
            import psycopg

            with (
                psycopg.connect(copy) as conn,
                pytest.raises(psycopg.errors.IntegrityConstraintViolation),
            ):
                conn.execute("DELETE FROM games_move")

            # A second restore onto the now full copy is refused, and changes nothing.
            again = _backup_script("restore", str(dump), RESTORE_URL=copy)
            assert again.returncode != 0
            assert "restore into an empty database" in again.stderr
            assert _games(copy).keys() == before.keys()
