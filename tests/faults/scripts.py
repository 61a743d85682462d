"""Running a fault script of bench/faults/ small, for the tests beside this module: each
starts the production topology (two Daphne processes behind nginx, PostgreSQL, Redis),
breaks something, and exits non-zero when a promise was broken (docs/performance.md,
"Faults"). One script a module, so that the suite's workers share them out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import needs_nginx, needs_postgres, needs_redis

ROOT = Path(__file__).resolve().parents[2]
NEEDS: list[pytest.MarkDecorator] = [needs_nginx, needs_postgres, needs_redis]


def run_script(script: str, *args: str, prepared: dict[str, str], timeout_s: float = 300) -> str:
    """Run `script` with `prepared` (tests/faults/conftest.py: the collected static root and
    a migrated database to copy, so that no script collects or migrates on its own).

    The script bounds its own racing (--timeout-s); `timeout_s` only catches a hang, above
    what starting the topology takes on a loaded machine (two Daphne and nginx; with its
    migrate, a minute under `.ci/loaded`: 150 s was too little once)."""
    try:
        result = subprocess.run(
            [sys.executable, f"bench/faults/{script}", *args],
            cwd=ROOT,
            env={**os.environ, **prepared},
            capture_output=True,
            text=True,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired as hung:
        printed = _text(hung.stdout) + _text(hung.stderr)
        pytest.fail(f"{script} still running after {timeout_s:.0f} s:\n{printed}")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.rstrip().endswith("OK"), output
    return output


def _text(output: bytes | str | None) -> str:
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""
