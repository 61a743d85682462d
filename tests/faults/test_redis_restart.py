"""The fault script bench/faults/redis_restart.py, run small (tests/faults/scripts.py)."""

from __future__ import annotations

from tests.faults.scripts import NEEDS, run_script
from tests.services import needs_redis_server

pytestmark = NEEDS


@needs_redis_server
def test_a_redis_restart_keeps_moves_flowing_and_clients_converge(prepared: dict[str, str]):
    output = run_script(
        "redis_restart.py",
        *("--races", "1", "--before-s", "2", "--outage-s", "2", "--after-s", "4"),
        *("--timeout-s", "100"),
        prepared=prepared,
    )
    assert "moves acknowledged while Redis was down" in output
