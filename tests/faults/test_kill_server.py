"""The fault script bench/faults/kill_server.py, run small (tests/faults/scripts.py)."""

from __future__ import annotations

from tests.faults.scripts import NEEDS, run_script

pytestmark = NEEDS


def test_killing_a_server_loses_no_acknowledged_move_and_racers_resync(
    prepared: dict[str, str],
) -> None:
    output = run_script(
        "kill_server.py",
        *("--races", "1", "--kills", "2", "--min-gap", "1.5", "--max-gap", "3"),
        *("--after-s", "2", "--timeout-s", "100"),
        prepared=prepared,
    )
    assert "acknowledged, not stored        0" in output
