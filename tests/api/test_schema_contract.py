"""The schema at /api/v1/schema is the API's contract, held by Schemathesis.

A bot author generates a client from the schema, so every answer must be one
the schema declares. Schemathesis (property-based testing from the schema)
generates requests, valid and deliberately invalid, against a live server with
a `play` token, and runs all of its checks on every answer: a 500, a status,
header or body the schema does not declare, a valid request refused, an invalid
one accepted, an operation declared as needing a token that answers without one.

It runs as Schemathesis's own command line (`schemathesis run`), the same run
its documentation and the issue's reproduction use (every phase: examples,
coverage, fuzzing, stateful). Its pytest plugin (`schemathesis.pytest.from_fixture`)
does not run under the locked pytest 9.2 (it sets `Function._nodeid`, which
pytest 9.2 no longer has). The examples are bounded (`MAX_EXAMPLES` an
operation) and deterministic, so every run sends the same requests and takes
seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.bots.helpers import account_with_token
from tests.servers import LiveServer, daphne, database_env

MAX_EXAMPLES = 20
# Every request of the run is one token's: its quota must outlast the run.
LIVE = {"SULTAN_QUOTA_API": "100000,100000"}


def contract_run(schema_url: str, token: str, cwd: Path, *extra: str) -> tuple[int, str]:
    """`schemathesis run` with all checks; its exit status (0: no failure) and report."""
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        schema_url,
        "--header",
        f"Authorization: Bearer {token}",
        "--checks",
        "all",
        "--mode",
        "all",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--generation-deterministic",  # no example database either: nothing carried over
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--no-color",
        *extra,
    ]
    # In a directory of its own: no schemathesis.toml of anyone's is read, nothing is left.
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def contract_server() -> Iterator[tuple[LiveServer, str]]:
    with database_env("contract") as env, daphne({**env, **LIVE}) as live:
        _, token = account_with_token(live.url, "contract-bot", scope="play")
        yield live, token


def test_every_answer_of_the_api_is_one_its_schema_declares(
    contract_server: tuple[LiveServer, str], tmp_path: Path
) -> None:
    live, token = contract_server
    status, report = contract_run(f"{live.url}/api/v1/schema", token, tmp_path)
    assert status == 0, report
    assert "Tested: 10" in report, report  # every operation, none skipped


class _Failing(BaseHTTPRequestHandler):
    """An API that serves Sultan's real schema and answers every request with a 500."""

    schema = b""

    def do_GET(self) -> None:
        if self.path == "/api/v1/schema":
            self._answer(200, self.schema)
        else:
            self._answer(500, b'{"type": "error", "code": "oops", "message": "oops"}')

    do_POST = do_GET

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_server_error_anywhere_fails_the_contract_run(tmp_path: Path) -> None:
    from games.api.api import api

    _Failing.schema = json.dumps(api.get_openapi_schema()).encode()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/v1/schema"
        one = ("--include-path", "/api/v1/players/{username}", "--max-failures", "1")
        status, report = contract_run(url, "sultan_x", tmp_path, *one, "--no-shrink")
    finally:
        server.shutdown()
        server.server_close()
    assert status != 0, report
    assert "Server error" in report, report
