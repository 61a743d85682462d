"""The fault script bench/faults/solver_abuse.py, run small (tests/faults/scripts.py)."""

from __future__ import annotations

import re

from tests.faults.scripts import NEEDS, run_script

pytestmark = NEEDS


def test_an_abuser_of_the_solver_is_refused_and_the_servers_stay_up(prepared: dict[str, str]):
    output = run_script(
        "solver_abuse.py",
        *("--races", "1", "--abusers", "4", "--phase-s", "8", "--timeout-s", "100"),
        "--no-latency-bound",
        prepared=prepared,
    )
    assert "processes alive True, /healthz 200" in output
    assert re.search(r"(quota|busy)\s+\d+", output)
