"""The real services some tests need: PostgreSQL, Redis, nginx.

CI provides all three (.ci/run); on a machine without one of them, the tests
that need it are skipped with the reason instead of failing. In CI (the `CI`
variable set) nothing is skipped: a missing service is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import pytest

POSTGRES_URL = os.environ.get(
    "SULTAN_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("SULTAN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), timeout=1
        ).close()
        return True
    except OSError:
        return False


def _need(available: bool, what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not available and not os.environ.get("CI"), reason=f"needs {what}")


needs_postgres = _need(_answers(POSTGRES_URL, 5432), f"PostgreSQL at {POSTGRES_URL}")
needs_redis = _need(_answers(REDIS_URL, 6379), f"Redis at {REDIS_URL}")
needs_nginx = _need(
    bool(shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")), "nginx installed"
)
needs_redis_server = _need(bool(shutil.which("redis-server")), "redis-server installed")


@contextmanager
def fresh_postgres_database(label: str, *, template: str = "") -> Iterator[str]:
    """A new PostgreSQL database for one test, empty or a copy of the database `template`
    (a migrated one: a copy takes milliseconds, a migration seconds of CPU); dropped
    afterwards. Yields its URL."""
    import psycopg

    name = f"sultan_{label}_{uuid.uuid4().hex[:8]}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    try:
        yield urlunsplit(urlsplit(POSTGRES_URL)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class PrivateRedis:
    """A redis-server of one test's (or one script's) own on a spare loopback port, to stop
    and start at will: the shared Redis at 6379 is never touched."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout_s: float = 10) -> None:
        # Channel-layer traffic only: nothing to persist.
        options = ["--save", "", "--appendonly", "no", "--loglevel", "warning"]
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", *options],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()
