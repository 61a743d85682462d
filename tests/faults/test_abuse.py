"""The fault script bench/faults/abuse.py, run small (tests/faults/scripts.py)."""

from __future__ import annotations

from tests.faults.scripts import NEEDS, run_script

pytestmark = NEEDS


def test_abusive_clients_neither_write_nor_take_the_server_down(prepared: dict[str, str]):
    output = run_script(
        "abuse.py",
        *("--races", "1", "--flooders", "2", "--phase-s", "5", "--timeout-s", "100"),
        "--no-latency-bound",
        prepared=prepared,
    )
    assert "processes alive True, /healthz 200" in output
