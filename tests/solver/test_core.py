"""The compiled core against the Python reference: same answers, lines and node counts.

Both searches are asked the same positions with the same node budget: the
golden late positions, whole deals, and positions hypothesis draws from games
played at random or greedily. The core searches in the reference's order, so
everything a solve returns must match, node count included.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import PLAYING, VARIANTS, GameState, apply, legal_moves, new_game
from games.engine.solver import compiled
from games.engine.solver.compiled import CompiledSearch, Engine, engine_for
from games.engine.solver.greedy import greedy_move
from games.engine.solver.model import Position
from games.engine.solver.search import Search
from games.engine.solver.solve import solve
from tests.solver.positions import from_json, late_position

GOLDEN = json.loads((Path(__file__).parent / "data" / "late_positions.json").read_text())

pytestmark = pytest.mark.skipif(
    compiled.core is None and not __import__("os").environ.get("CI"),
    reason="the compiled core is not built (CI insists on it)",
)


def _both(state: GameState, max_nodes: int | None) -> None:
    reference = solve(state, max_nodes=max_nodes, engine="python")
    core = solve(state, max_nodes=max_nodes, engine="c")
    assert core == reference


@pytest.mark.parametrize("position", GOLDEN, ids=[f"{p['variant']}-{p['seed']}" for p in GOLDEN])
def test_the_core_answers_the_golden_positions_as_the_reference_does(
    position: dict[str, Any],
) -> None:
    _both(from_json(position), max_nodes=None)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_the_core_searches_whole_deals_node_for_node_as_the_reference(
    variant: str, seed: int
) -> None:
    _both(new_game(seed, variant), max_nodes=40_000)


def _played_into(
    seed: int, variant: str, moves: int, rng: random.Random, greedy: bool
) -> GameState:
    state = new_game(seed, variant)
    for _ in range(moves):
        if state.status != PLAYING:
            break
        choice = greedy_move(state) if greedy else rng.choice(legal_moves(state))
        if choice is None:
            break
        state = apply(state, choice)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(VARIANTS),
    moves=st.integers(0, 400),
    greedy=st.booleans(),
    budget=st.integers(1, 20_000),
)
def test_the_core_matches_the_reference_on_positions_of_played_games(
    seed: int, variant: str, moves: int, greedy: bool, budget: int
) -> None:
    state = _played_into(seed, variant, moves, random.Random(seed), greedy)
    _both(state, max_nodes=budget)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(VARIANTS),
    cards_out=st.integers(4, 24),
    shape=st.integers(0, 10**6),
)
def test_the_core_matches_the_reference_on_drawn_late_positions(
    seed: int, variant: str, cards_out: int, shape: int
) -> None:
    rng = random.Random(shape)
    state = late_position(seed, variant, cards_out, rng, full_reserve=rng.random() < 0.5)
    _both(state, max_nodes=20_000)


def test_a_core_starved_of_memory_still_proves_only_true_losses() -> None:
    # At its memory cap (16 KiB: a table of 256 positions) the core drops what
    # it would remember: it searches more, and must still come to the same verdict.
    checked = 0
    for position in GOLDEN:
        state = from_json(position)
        needs = solve(state, max_nodes=None, engine="c").nodes
        if position["winnable"] or not 250 <= needs <= 1_000:
            continue
        search = CompiledSearch(Position(state), max_nodes=None, max_seconds=None, memory=16 << 10)
        assert search.run() is False
        assert search.stats["dropped"]
        assert search.nodes > needs
        checked += 1
    assert checked >= 2


def test_a_core_starved_of_memory_still_wins_with_a_line_the_engine_accepts() -> None:
    state = new_game(2, "sultan")
    solution_nodes = solve(state, max_nodes=60_000, engine="c").nodes
    search = CompiledSearch(Position(state), max_nodes=2_000_000, max_seconds=None, memory=1 << 20)
    assert search.run() is True
    assert search.nodes >= solution_nodes


def test_the_core_stops_at_a_time_budget_of_nothing() -> None:
    assert solve(new_game(4, "sultan"), max_nodes=None, max_seconds=0.0, engine="c").status == (
        "unknown"
    )


def test_the_core_shakes_with_pythons_own_random_numbers() -> None:
    assert compiled.core is not None
    for seed in (24, 25, 49, 2**40 + 3):
        expected = random.Random(seed)
        assert compiled.core.mt_random(seed, 1500) == [expected.random() for _ in range(1500)]


def test_the_environment_can_force_the_python_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.ENGINE_ENV, "python")
    assert engine_for(None) == "python"
    assert engine_for("c") == "c"
    monkeypatch.setenv(compiled.ENGINE_ENV, "fortran")
    with pytest.raises(ValueError, match="must be 'c' or 'python'"):
        engine_for(None)


def test_the_core_is_the_default_when_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.ENGINE_ENV, raising=False)
    assert engine_for(None) == "c"


def test_the_reference_search_is_still_its_own_class() -> None:
    # The reference stays pure Python: nothing of the core leaks into it.
    assert Search.__module__ == "games.engine.solver.search"


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_cpu_time_budget_of_nothing_stops_either_engine(engine: Engine) -> None:
    solution = solve(
        new_game(4, "sultan"), max_nodes=None, max_seconds=0.0, engine=engine, cpu_clock=True
    )
    assert solution.status == "unknown"


def test_the_core_lets_other_threads_run_while_it_searches() -> None:
    # A hint solved in the server must not stop its event loop: while one
    # long round runs (a million nodes, all in C), another thread must get to
    # run Python and see the node count climb. (`pysolfc`: no redeal shuffle,
    # so the round never calls back into Python.)
    search = CompiledSearch(Position(new_game(2, "pysolfc")), 1_000_000, max_seconds=None)
    core = search._search
    seen: set[int] = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.add(core.nodes)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        core.round(-1, -1, 0, -1, 0.0)
    finally:
        stop.set()
        watcher.join()
    assert any(0 < nodes < core.nodes for nodes in seen)
