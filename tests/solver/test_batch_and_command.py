"""Solving ranges of deals: the deal-range syntax, the workers, and the `solve` command."""

from __future__ import annotations

import csv
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine.solver.batch import parse_deals, percentile, solve_deals


def test_deal_ranges_read_as_lists_of_seeds() -> None:
    assert parse_deals("1-3") == [1, 2, 3]
    assert parse_deals("7") == [7]
    assert parse_deals("1-2,9,20-21") == [1, 2, 9, 20, 21]


@pytest.mark.parametrize("text", ["", "a-3", "5-1", "1-", "-3", "1..3"])
def test_bad_deal_ranges_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="deal range"):
        parse_deals(text)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.9) == 90.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0


def test_two_workers_give_the_same_answers_in_the_same_order_as_one() -> None:
    one = list(solve_deals("sultan-8", [0, 3], 3_000, None, workers=1))
    two = list(solve_deals("sultan-8", [0, 3], 3_000, None, workers=2))
    strip = [(r.seed, r.status, r.nodes, r.moves, r.greedy) for r in one]
    assert strip == [(r.seed, r.status, r.nodes, r.moves, r.greedy) for r in two]
    assert [r.seed for r in one] == [0, 3]


def test_solve_command_prints_a_row_per_deal_a_summary_and_a_csv(tmp_path: Path) -> None:
    out = StringIO()
    target = tmp_path / "deals.csv"
    call_command(
        "solve",
        "--variant",
        "sultan-8",
        "--deals",
        "0-1",
        "--max-nodes",
        "5000",
        "--csv",
        str(target),
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["deal", "status", "nodes", "seconds", "moves"]
    assert [line.split()[:2] for line in lines[1:3]] == [["0", "won"], ["1", "won"]]
    assert lines[-1].startswith("2 deals: won 2 (100.0%), lost 0 (0.0%), unknown 0 (0.0%)")
    rows = list(csv.DictReader(target.open()))
    assert [(r["deal"], r["variant"], r["status"]) for r in rows] == [
        ("0", "sultan-8", "won"),
        ("1", "sultan-8", "won"),
    ]
    assert all(int(r["moves"]) > 0 for r in rows)
    assert all(0 < int(r["greedy_played"]) <= 95 for r in rows)


def test_solve_command_reports_unknown_when_the_budget_is_tiny() -> None:
    out = StringIO()
    call_command("solve", "--deals", "4", "--max-nodes", "10", stdout=out)
    assert "4  unknown" in out.getvalue()


def test_solve_command_refuses_a_bad_range() -> None:
    with pytest.raises(CommandError, match="deal range"):
        call_command("solve", "--deals", "9-1", stdout=StringIO())
