"""Real Daphne processes for tests that need the whole stack over sockets.

Each server gets its own database: a fresh SQLite file, or, when the suite
runs against PostgreSQL, a fresh PostgreSQL database on the same server. The
channel layer follows REDIS_URL, as in production.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
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


def _postgres_database(url: str, name: str, template: str | None = None) -> str:
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    import psycopg

    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    return urlunsplit(parts._replace(path=f"/{name}"))


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=180,
    )


# A migrated database per test process, copied for each server: a migration run
# costs seconds of CPU, a copy milliseconds (SQLite: the file; PostgreSQL: a
# database made from it as TEMPLATE). Made at the first server of the process.
_TEMPLATE_DIR = tempfile.TemporaryDirectory(prefix="sultan-template-")
_templates: dict[str, str] = {}
# How much of a server's log a failed test prints.
LOG_TAIL = 6000
UP_WITHIN_S = 120


def _sqlite_copy(env: dict[str, str], path: Path) -> None:
    template = _templates.get("sqlite")
    if template is None:
        template = str(Path(_TEMPLATE_DIR.name) / "migrated.sqlite3")
        migrate({**env, "SQLITE_PATH": template})
        _templates["sqlite"] = template
    shutil.copyfile(template, path)


def _postgres_copy(env: dict[str, str], name: str, template_name: str) -> str:
    """A database `name` copied from this process's migrated template of env's server."""
    url = env["DATABASE_URL"]
    if url not in _templates:
        template_url = _postgres_database(url, template_name)
        migrate({**env, "DATABASE_URL": template_url})
        _templates[url] = template_name
    return _postgres_database(url, name, template=_templates[url])


@contextmanager
def database_env(label: str) -> Iterator[dict[str, str]]:
    """Environment for a server process with a database of its own, migrated."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["DJANGO_SETTINGS_MODULE"] = "sultan_site.settings"
    # A solver process per server only when a test asks for a solve.
    env.setdefault("SULTAN_SOLVER_WARM", "0")
    # Its solver at the web process's priority: the tests wait on hints and analyses,
    # and beside .ci/loaded's busy loops a solver at nice 10 got ~5% of a core (hints
    # past the tests' 30 s). The priority's own test is bench/faults/solver_abuse.py.
    env.setdefault("SULTAN_SOLVER_NICE", "0")
    # Every test's "people" are new guests from 127.0.0.1, on servers whose counters
    # the tests cannot clear: the per-address throttles of new identities would refuse
    # them (tests/fairness/test_sybils.py tests those throttles in-process).
    # Its own names in the worker's Redis database, as a deployment of its own would
    # have: servers of one worker run at once, and their rows share ids (one template).
    # Two processes of one test share them (they are given one environment).
    own = f"{label}-{uuid.uuid4().hex[:8]}"
    env["SULTAN_CHANNEL_PREFIX"] = f"{os.environ.get('SULTAN_CHANNEL_PREFIX', 'asgi')}-{own}"
    env["SULTAN_REDIS_KEY_PREFIX"] = f"sultan-{own}"
    # Browser tests race two fresh accounts and read their ratings move: on the live
    # server a newcomer counts against others at once (games/fairness/worth.py; the
    # rule's own tests run in-process, at the default).
    env.setdefault("SULTAN_RATING_ESTABLISHED_OPPONENTS", "0")
    env.setdefault("SULTAN_QUOTA_GUEST", "1,100000")
    env.setdefault("SULTAN_QUOTA_SIGNUP", "1,100000")
    # So do the per-address quotas of work, counted for as long as the server lives (a
    # session, in its own cache on the embedded defaults): a test's share must not
    # depend on what the tests before it spent. Each player's own quota stays as set.
    player_quotas = {
        "hint": 60,
        "analysis": 20,
        "winnable": 10,
        "race": 30,
        "bot": 20,
        "invite": 20,
    }
    for kind, per_player in player_quotas.items():
        env.setdefault(f"SULTAN_QUOTA_{kind.upper()}", f"{per_player},100000")
    with tempfile.TemporaryDirectory(prefix="sultan-live-") as tmp:
        if env.get("DATABASE_URL", "").startswith("postgres"):
            # Named after the suite's own database and the xdist worker, so that two
            # checkouts' suites, or two workers of one, never drop each other's.
            own = urlsplit(env["DATABASE_URL"]).path.strip("/") or "sultan"
            prefix = f"{own}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_live"
            env["DATABASE_URL"] = _postgres_copy(env, f"{prefix}_{label}", f"{prefix}_template")
        else:
            env.pop("DATABASE_URL", None)
            env["SQLITE_PATH"] = str(Path(tmp) / "live.sqlite3")
            _sqlite_copy(env, Path(env["SQLITE_PATH"]))
        yield env


@contextmanager
def daphne(
    env: dict[str, str], port: int | None = None, *, healthy: bool = True
) -> Iterator[LiveServer]:
    """A Daphne process on `port`; up once /healthz answers 200 (any answer if not `healthy`).

    The socket is bound here and handed to Daphne (`--fd`): a port picked free and bound
    later could be taken in between by another worker's server, which then answered
    this one's health check and its test (a bots test read another server's race)."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port or 0))
    listener.listen(128)
    port = int(listener.getsockname()[1])
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below, after the process
    with listener:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "--fd",
                str(listener.fileno()),
                "sultan_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(listener.fileno(),),
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log, healthy)
        yield LiveServer(url=url, port=port, env=env, process=process)
    except BaseException:
        # A test that failed against this server: its log beside the failure (captured
        # as the test's stderr), or a 500 at a handshake leaves nothing to read.
        log.seek(0)
        tail = log.read().decode(errors="replace")[-LOG_TAIL:]
        print(f"--- daphne on port {port}, the end of its log:\n{tail}", file=sys.stderr)
        raise
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
    # A deadline for a hung start, not a measure: under .ci/loaded (and helpers beside
    # it) a browser module's server once took over 60 s to answer its first request.
    deadline = time.monotonic() + UP_WITHIN_S
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
    raise RuntimeError(f"daphne did not answer on {url} within {UP_WITHIN_S} s")


def live_sql(server: LiveServer, sql: str, *params: object) -> None:
    """One statement on a live server's own database (placeholders written `%s`).

    For what a test cannot wait for in real time, such as a tournament's clock
    running out: the server reads the row as it would have become."""
    url = server.env.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as pg:
            pg.execute(sql, params)
        return
    import sqlite3

    with closing(sqlite3.connect(server.env["SQLITE_PATH"], timeout=10)) as lite, lite:
        lite.execute(sql.replace("%s", "?"), params)


def solver_busy(server: LiveServer) -> int:
    """Solver slots in use on a server started with SULTAN_METRICS_PORT (its figures)."""
    port = server.env["SULTAN_METRICS_PORT"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    found = re.search(r"^sultan_solver_slots_busy (\S+)$", text, re.MULTILINE)
    return int(float(found.group(1))) if found else 0
