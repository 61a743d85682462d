"""The race page's socket (frontend/static/js/race/socket.js) asks for a sync on a real gap
only, not for a frame merely late: under load a sync is work for a server already behind
(/work/shared/profiles: 28% of moves caused one). Driven by node on a clock of its own."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _syncs(scenario: str) -> list[dict[str, object]]:
    assert NODE is not None
    result = subprocess.run(
        [
            NODE,
            str(ROOT / "tests/races/js/socket_gaps.mjs"),
            str(ROOT / "frontend/static/js/race/socket.js"),
            scenario,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    syncs: list[dict[str, object]] = json.loads(result.stdout)
    return syncs


def test_it_waits_longer_for_frames_once_gaps_are_seen_to_fill_late():
    assert _syncs("late") == []


def test_it_gives_each_gap_its_own_patience_from_when_it_opened():
    assert _syncs("successive") == []


def test_it_asks_for_a_version_that_never_comes():
    assert _syncs("lost") == [{"type": "sync", "v": 10}]


def test_it_waits_for_the_frame_of_a_version_a_pong_named():
    assert _syncs("pong") == []
