"""The heavy test modules first, so that two workers end together.

`make test` runs each module on one worker (`--dist loadfile`). pytest-xdist's
own order sorts modules by their number of tests, which put the few-but-long
modules last (the fault scripts: five tests, three minutes): one worker ran
them alone while the other sat idle. Here the modules that cost more than
`HEAVY_S` go first, the costliest first (the longest-first rule that keeps
the two workers' ends close); the rest keep pytest-randomly's shuffled order,
as do the tests inside every module. `make pytest` passes
`--no-loadscope-reorder` so that xdist keeps this order.

What a module costs is `tests/weights.json`, seconds measured by a run with
`--record-weights` (setup, call and teardown of its tests; `make weights`).
A module missing from it counts as light until the next recording.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

WEIGHTS = Path(__file__).with_name("weights.json")
HEAVY_S = 10.0
_spent: defaultdict[str, float] = defaultdict(float)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-weights",
        action="store_true",
        help="write each test module's seconds to tests/weights.json at the end of the run",
    )


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _weights() -> dict[str, float]:
    try:
        loaded = json.loads(WEIGHTS.read_text())
    except (FileNotFoundError, ValueError):
        return {}
    return {str(k): float(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}


def heavy_first(nodeids: list[str], weights: dict[str, float]) -> list[str]:
    """`nodeids` with the heavy modules' tests first, costliest module first; the rest, and
    the tests inside each module, in the order given."""
    first_seen: dict[str, int] = {}
    for nodeid in nodeids:
        first_seen.setdefault(_module(nodeid), len(first_seen))

    def key(nodeid: str) -> tuple[float, int]:
        module = _module(nodeid)
        cost = weights.get(module, 0.0)
        return (-cost if cost >= HEAVY_S else 0.0, first_seen[module])

    return sorted(nodeids, key=key)  # stable


def heavy_unrecorded(spent: dict[str, float], weights: dict[str, float]) -> list[tuple[float, str]]:
    """The modules that cost `HEAVY_S` or more in a run and have no weight, costliest first."""
    return sorted(
        ((s, m) for m, s in spent.items() if s >= HEAVY_S and m not in weights), reverse=True
    )


@pytest.hookimpl(trylast=True)  # after pytest-randomly's shuffle, which it keeps for the rest
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    by_id = {item.nodeid: item for item in items}
    items[:] = [by_id[nodeid] for nodeid in heavy_first(list(by_id), _weights())]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _spent[_module(report.nodeid)] += report.duration


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name the heavy modules tests/weights.json lacks, with what they cost in this run: a
    module it lacks is scheduled as light, wherever the shuffle puts it, and one left to
    the end of the run keeps a worker busy while the other waits."""
    if hasattr(config, "workerinput") or config.getoption("--record-weights"):
        return
    missing = heavy_unrecorded(dict(_spent), _weights())
    if missing:
        terminalreporter.write_sep("=", "heavy modules tests/weights.json lacks (`make weights`)")
        for seconds, module in missing:
            terminalreporter.write_line(f"{seconds:7.1f}s {module}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    config: Any = session.config
    if not config.getoption("--record-weights") or hasattr(config, "workerinput"):
        return  # the controller writes, from every worker's reports
    if not _spent:
        return
    # A part of the suite updates its own modules; a module that is gone leaves.
    weights = {m: s for m, s in _weights().items() if Path(m).exists()}
    weights.update({m: round(s, 1) for m, s in _spent.items()})
    WEIGHTS.write_text(json.dumps(dict(sorted(weights.items())), indent=1) + "\n")
