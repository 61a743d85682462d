"""The fault scripts of bench/faults/, run small: each starts the production topology
(two Daphne processes behind nginx, PostgreSQL, Redis), breaks something, and exits
non-zero when a promise was broken (docs/performance.md, "Faults")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.services import needs_nginx, needs_postgres, needs_redis, needs_redis_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [needs_nginx, needs_postgres, needs_redis]


def _run(script: str, *args: str, timeout_s: float = 150) -> str:
    result = subprocess.run(
        [sys.executable, f"bench/faults/{script}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.rstrip().endswith("OK"), output
    return output


def test_killing_a_server_loses_no_acknowledged_move_and_racers_resync():
    output = _run(
        "kill_server.py",
        *("--races", "1", "--kills", "2", "--min-gap", "1.5", "--max-gap", "3"),
        *("--after-s", "2", "--timeout-s", "100"),
    )
    assert "acknowledged, not stored        0" in output


@needs_redis_server
def test_a_redis_restart_keeps_moves_flowing_and_clients_converge():
    output = _run(
        "redis_restart.py",
        *("--races", "1", "--before-s", "2", "--outage-s", "2", "--after-s", "4"),
        *("--timeout-s", "100"),
    )
    assert "moves acknowledged while Redis was down" in output


def test_a_database_outage_refuses_moves_clearly_and_the_race_resumes():
    output = _run(
        "db_outage.py",
        *("--races", "1", "--before-s", "2", "--outage-s", "4", "--after-s", "3"),
        *("--timeout-s", "100"),
    )
    assert "/healthz during / after the outage  503 / 200" in output


def test_abusive_clients_neither_write_nor_take_the_server_down():
    output = _run(
        "abuse.py",
        *("--races", "1", "--flooders", "2", "--phase-s", "5", "--timeout-s", "100"),
        "--no-latency-bound",
    )
    assert "processes alive True, /healthz 200" in output


def test_an_abuser_of_the_solver_is_refused_and_the_servers_stay_up():
    output = _run(
        "solver_abuse.py",
        *("--races", "1", "--abusers", "4", "--phase-s", "8", "--timeout-s", "100"),
        "--no-latency-bound",
    )
    assert "processes alive True, /healthz 200" in output
    assert re.search(r"(quota|busy)\s+\d+", output)
