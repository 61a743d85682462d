"""The fault script bench/faults/db_outage.py, run small (tests/faults/scripts.py)."""

from __future__ import annotations

from tests.faults.scripts import NEEDS, run_script

pytestmark = NEEDS


def test_a_database_outage_refuses_moves_clearly_and_the_race_resumes(
    prepared: dict[str, str],
) -> None:
    output = run_script(
        "db_outage.py",
        *("--races", "1", "--before-s", "2", "--outage-s", "4", "--after-s", "3"),
        *("--timeout-s", "100"),
        prepared=prepared,
    )
    assert "/healthz during / after the outage  503 / 200" in output
