"""Real Daphne processes for tests that need the whole stack over sockets.

Each server gets its own database: a fresh SQLite file, or, when the suite
runs against PostgreSQL, a fresh PostgreSQL database on the same server. The
channel layer follows REDIS_URL, as in production.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    port: int
    env: dict[str, str]
    process: subprocess.Popen[bytes]

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)


def _postgres_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextmanager
def database_env(label: str) -> Iterator[dict[str, str]]:
    """Environment for a server process with a database of its own, migrated."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["DJANGO_SETTINGS_MODULE"] = "sultan_site.settings"
    # A solver process per server only when a test asks for a solve.
    env.setdefault("SULTAN_SOLVER_WARM", "0")
    # Every test's "people" are new guests from 127.0.0.1, on servers whose counters
    # the tests cannot clear: the per-address throttles of new identities would refuse
    # them (tests/fairness/test_sybils.py tests those throttles in-process).
    env.setdefault("SULTAN_QUOTA_GUEST", "1,100000")
    env.setdefault("SULTAN_QUOTA_SIGNUP", "1,100000")
    with tempfile.TemporaryDirectory(prefix="sultan-live-") as tmp:
        if env.get("DATABASE_URL", "").startswith("postgres"):
            # Named after the suite's own database, so that two checkouts' suites
            # running at once on one server never drop each other's.
            own = urlsplit(env["DATABASE_URL"]).path.strip("/") or "sultan"
            env["DATABASE_URL"] = _postgres_database(env["DATABASE_URL"], f"{own}_live_{label}")
        else:
            env.pop("DATABASE_URL", None)
            env["SQLITE_PATH"] = str(Path(tmp) / "live.sqlite3")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=180,
        )
        yield env


@contextmanager
def daphne(
    env: dict[str, str], port: int | None = None, *, healthy: bool = True
) -> Iterator[LiveServer]:
    """A Daphne process on `port`; up once /healthz answers 200 (any answer if not `healthy`)."""
    port = port or free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below, after the process
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "sultan_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log, healthy)
        yield LiveServer(url=url, port=port, env=env, process=process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _wait_until_up(
    url: str, process: subprocess.Popen[bytes], log: object, healthy: bool = True
) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)  # type: ignore[attr-defined]
            raise RuntimeError(f"daphne exited: {log.read().decode(errors='replace')}")  # type: ignore[attr-defined]
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5):
                return
        except urllib.error.HTTPError:
            # It answers, unhealthy: up for a test that made it so on purpose.
            if not healthy:
                return
            time.sleep(0.2)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not answer on {url} within 60 s")
