"""`make serve-prod` (deploy/serve_prod.py): two Daphne processes behind nginx on loopback,
with production settings, against PostgreSQL and Redis."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.serve_prod import HANDSHAKE_TIMEOUT_S, LISTEN_BACKLOG, get_status
from tests.live import WebClient, receive_until
from tests.processes import alive, children, cmdline
from tests.servers import free_port
from tests.services import (
    REDIS_URL,
    fresh_postgres_database,
    needs_nginx,
    needs_postgres,
    needs_redis,
)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [needs_nginx, needs_postgres, needs_redis]


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    url: str
    ports: list[int]
    log: Path

    def daphne_pids(self) -> dict[int, int]:
        """Port -> pid of the Daphne children, read from /proc."""
        found = {}
        for pid in children(self.process.pid):
            argv = cmdline(pid)
            if "daphne" in argv:
                port = re.search(r"port=(\d+)", argv[argv.index("--endpoint") + 1])
                assert port is not None, argv
                found[int(port.group(1))] = pid
        return found


def _wait(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout:.0f} s")


@pytest.fixture(scope="module")
def served(collected_static: str, migrated_postgres: str) -> Iterator[Served]:
    """The module's topology on what the worker has already collected and migrated;
    test_ctrl_c_stops_every_process starts one that does both itself."""
    with _serve(collected=collected_static, template=migrated_postgres) as served:
        yield served


@contextmanager
def _serve(collected: str = "", template: str = "") -> Iterator[Served]:
    """serve-prod on a database of its own; `collected`: a static root already collected
    (no collectstatic), `template`: a migrated database to copy (nothing to migrate)."""
    listen, ports = free_port(), [free_port(), free_port()]
    with (
        fresh_postgres_database("serve", template=template) as database_url,
        tempfile.TemporaryDirectory() as tmp,
    ):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        env.update(
            DATABASE_URL=database_url,
            REDIS_URL=REDIS_URL,
            DJANGO_STATIC_ROOT=collected or str(Path(tmp) / "static"),
            SULTAN_RACE_COUNTDOWN_S="0",
        )
        Path(tmp).chmod(0o755)  # nginx's workers read the static files as `nobody` under root
        log = Path(tmp) / "serve.log"
        spread = ",".join(map(str, ports))
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "deploy/serve_prod.py",
                    "--listen",
                    str(listen),
                    "--ports",
                    spread,
                    *(["--collected"] if collected else []),
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        served = Served(process, f"http://127.0.0.1:{listen}", ports, log)
        try:
            _wait(
                lambda: process.poll() is not None or b"serving on" in log.read_bytes(),
                180,
                "serve-prod did not start",
            )
            assert process.poll() is None, log.read_text()
            yield served
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(5)


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        return r.status, dict(r.headers), r.read()


def test_nginx_serves_the_home_page_from_a_daphne_process_with_debug_off(served):
    status, headers, body = _get(served.url + "/")
    assert status == 200
    assert headers["Server"] == "nginx"
    # DEBUG off: the manifest storage names static files by their content's hash.
    assert re.search(rb"/static/css/site\.[0-9a-f]{12}\.css", body)


def test_hashed_static_files_are_cached_for_a_year_and_sent_compressed(served):
    _, _, page = _get(served.url + "/")
    match = re.search(rb"/static/css/site\.[0-9a-f]{12}\.css", page)
    assert match is not None
    status, headers, _ = _get(served.url + match.group().decode(), **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Encoding"] == "gzip"
    assert "daphne" not in headers.get("Server", "")


def test_unhashed_static_files_are_revalidated_soon(served):
    # ES modules import their siblings by plain name: those must not be pinned for a year.
    status, headers, _ = _get(served.url + "/static/js/cards.js")
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=60"


def test_the_health_endpoint_answers_through_nginx(served):
    status, _, body = _get(served.url + "/healthz")
    assert status == 200
    assert json.loads(body) == {"status": "ok", "database": "ok", "channel_layer": "ok"}


async def test_a_race_runs_over_sockets_through_nginx(served):
    ws_url = served.url.replace("http://", "ws://")
    alice, bob = WebClient(served.url), WebClient(served.url)
    _, race_url = alice.post("/races/new", {"nickname": "alice", "time_limit": 5, "seats": 2})
    code = race_url.rstrip("/").rsplit("/", 1)[1]
    bob.post(f"/r/{code}/join", {"nickname": "bob"})
    alice_ws = await alice.connect(ws_url, f"/ws/races/{code}/")
    bob_ws = await bob.connect(ws_url, f"/ws/races/{code}/")
    try:
        alice_id = (await receive_until(alice_ws, "snapshot"))["you"]["player"]
        await receive_until(bob_ws, "snapshot")
        await alice_ws.send(json.dumps({"type": "start"}))
        running = await receive_until(alice_ws, "snapshot", timeout=15)
        assert running["race"]["status"] == "running"
        await receive_until(bob_ws, "snapshot", timeout=15)
        await alice_ws.send(json.dumps({"type": "move", "token": "draw", "id": "a1", "seq": 0}))
        assert (await receive_until(alice_ws, "ack"))["seq"] == 1
        progress = await receive_until(bob_ws, "progress")
        assert [r["player"] for r in progress["racers"]] == [alice_id]
    finally:
        await alice_ws.close()
        await bob_ws.close()


def test_each_daphne_listens_with_room_for_a_burst_of_handshakes(served):
    """Twisted's default backlog, 50, overflowed when a tournament seated a hundred races
    at once: nginx gives an upstream 2 s to accept and answered 502 (bench/arena.py)."""
    for port in served.ports:
        listening = subprocess.run(
            ["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, check=True
        ).stdout.split()
        assert int(listening[2]) >= LISTEN_BACKLOG  # a listening socket's Send-Q: its backlog
    for pid in served.daphne_pids().values():
        argv = cmdline(pid)
        timeout = argv[argv.index("--websocket_connect_timeout") + 1]
        assert int(timeout) == HANDSHAKE_TIMEOUT_S  # Daphne's own, 5 s, reset the burst's
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"backlog={LISTEN_BACKLOG}" in dockerfile
    assert f'"--websocket_connect_timeout", "{HANDSHAKE_TIMEOUT_S}"' in dockerfile


def test_a_killed_daphne_is_routed_around_and_started_again(served):
    pids = served.daphne_pids()
    assert sorted(pids) == sorted(served.ports)
    victim = served.ports[0]
    os.kill(pids[victim], signal.SIGKILL)
    # nginx takes the dead process out on its first refused connection.
    statuses = [get_status(served.url + "/healthz", host="127.0.0.1") for _ in range(20)]
    assert statuses == [200] * 20
    _wait(
        lambda: (
            served.daphne_pids().get(victim, pids[victim]) != pids[victim]
            and get_status(f"http://127.0.0.1:{victim}/healthz", host="127.0.0.1") == 200
        ),
        60,
        "the killed Daphne was not started again",
    )


def test_ctrl_c_stops_every_process():
    with _serve() as served:  # its own: the module's must outlive this test
        _ctrl_c_stops_every_process(served)


def _ctrl_c_stops_every_process(served: Served) -> None:
    pids = served.daphne_pids()
    served.process.send_signal(signal.SIGINT)
    assert served.process.wait(30) == 0
    for pid in pids.values():
        _wait(lambda pid=pid: not alive(pid), 10, f"pid {pid} outlived serve-prod")
    assert get_status(served.url + "/healthz", timeout=2) == 0
