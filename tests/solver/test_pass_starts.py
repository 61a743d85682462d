"""The core's counting mode keeps each pass's start with the line that reaches it.

`compiled.pass_starts` is what a search stage by stage stands on
(bench/stagewise.py): a start it gives must be a position the engine really
reaches by playing the steps given with it, and each start is given once.
"""

from __future__ import annotations

from games.engine import WON, GameState, apply, new_game
from games.engine.solver.compiled import (
    LAST_REDEAL,
    PassStart,
    count_last_redeals,
    pass_starts,
)
from games.engine.solver.model import Position
from games.engine.solver.solve import solve, to_notation

FIRST_REDEAL = 1


def _played(state: GameState, steps: tuple[int, ...]) -> GameState:
    for token in to_notation(state, list(steps)):
        state = apply(state, token)
    return state


def _named(starts: list[PassStart]) -> list[tuple[object, ...]]:
    return [(start.position.key(), start.steps) for start in starts]


def test_every_last_pass_start_of_the_deal_proved_lost_is_kept_once_and_reached() -> None:
    deal = new_game(387, "pysolfc")
    found = pass_starts(Position(deal), LAST_REDEAL, None)
    assert found.won is None
    assert len(found.starts) == count_last_redeals(Position(deal), None).starts == 28
    keys = [start.position.key() for start in found.starts]
    assert len(set(keys)) == len(keys)
    for start in found.starts:
        reached = _played(deal, start.steps)
        assert reached.redeals_left == 0
        assert not reached.waste
        assert Position(reached).key() == start.position.key()


def test_second_pass_starts_of_a_shuffled_deal_are_reached_by_their_lines() -> None:
    deal = new_game(2, "sultan")
    found = pass_starts(Position(deal), FIRST_REDEAL, 20_000)
    assert found.won is None
    assert len(found.starts) > 100
    for start in found.starts[::25]:
        reached = _played(deal, start.steps)
        assert reached.redeals_left == 1
        assert Position(reached).key() == start.position.key()


def test_it_keeps_only_as_many_starts_as_asked_the_first_met() -> None:
    deal = Position(new_game(2, "sultan"))
    every = pass_starts(deal, FIRST_REDEAL, 20_000)
    first = pass_starts(deal, FIRST_REDEAL, 20_000, keep=5)
    assert _named(first.starts) == _named(every.starts[:5])
    assert first.nodes == every.nodes


def test_a_win_met_before_the_redeal_is_given_as_a_line() -> None:
    state = new_game(2, "sultan")
    moves = solve(state, max_nodes=100_000).moves
    last = moves.index("redeal", moves.index("redeal") + 1)
    for token in moves[: last + 1]:
        state = apply(state, token)
    found = pass_starts(Position(state), LAST_REDEAL, 100_000)
    assert found.starts == []
    assert found.won is not None
    assert _played(state, found.won).status == WON
