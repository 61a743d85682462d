"""The suite's order (tests/weights.py): heavy modules first so that two workers end together."""

from __future__ import annotations

from tests.weights import HEAVY_S, heavy_first, heavy_unrecorded


def test_it_starts_the_costliest_modules_first_and_keeps_the_shuffle_for_the_rest() -> None:
    shuffled = [
        "tests/a.py::one",
        "tests/faults/test_kill.py::only",
        "tests/b.py::two",
        "tests/browser/test_race.py::second",
        "tests/a.py::three",
        "tests/browser/test_race.py::first",
        "tests/c.py::four",
    ]
    weights = {
        "tests/faults/test_kill.py": 45.0,
        "tests/browser/test_race.py": 60.0,
        "tests/b.py": HEAVY_S / 2,  # light: stays where the shuffle put it
    }
    assert heavy_first(shuffled, weights) == [
        "tests/browser/test_race.py::second",
        "tests/browser/test_race.py::first",
        "tests/faults/test_kill.py::only",
        "tests/a.py::one",
        "tests/a.py::three",
        "tests/b.py::two",
        "tests/c.py::four",
    ]


def test_it_keeps_the_given_order_without_weights() -> None:
    shuffled = ["tests/z.py::a", "tests/y.py::b", "tests/z.py::c"]
    assert heavy_first(shuffled, {}) == ["tests/z.py::a", "tests/z.py::c", "tests/y.py::b"]


def test_it_names_the_heavy_modules_the_weights_lack_costliest_first() -> None:
    spent = {"tests/a.py": 12.0, "tests/b.py": 40.0, "tests/c.py": 3.0, "tests/d.py": 50.0}
    assert heavy_unrecorded(spent, {"tests/d.py": 45.0}) == [
        (40.0, "tests/b.py"),
        (12.0, "tests/a.py"),
    ]
