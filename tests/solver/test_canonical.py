"""`pysolfc` positions are keyed by the first pass's places (search.py, CANONICAL KEYS).

A key that two different positions shared would let one's proof of loss
stand for the other: a false proof. So every key the reference search makes
on whole deals is checked to stand for one position, read off the pass
without the places (the core keys alike: test_core.py has both engines
search the same positions, node for node); and a position reached in two
passes is checked to be one key. Small `pysolfc` positions with a redeal
left are nearly all won (the golden positions' are all won, and 300 dealt
at random from 20 to 34 cards out were too), so brute.py's answers cannot
check lost ones here; the deals proved lost (`pysolfc` 387 and 909) are
still proved lost, in fewer positions, and those proofs were checked by
searches that share nothing with these keys (docs/solvability.md).
"""

from __future__ import annotations

import pytest

from games.engine import GameState, new_game
from games.engine.solver.compiled import Engine
from games.engine.solver.model import Card, Pass, Position
from games.engine.solver.search import Key, Search
from games.engine.solver.solve import solve


class _Recording(Search):
    """The reference search, noting which position each table key stood for."""

    def __init__(self, state: GameState, max_nodes: int) -> None:
        super().__init__(Position(state), max_nodes, None)
        self.seen: dict[Key, tuple[object, ...]] = {}
        self.passes_of: dict[Key, set[int]] = {}

    def _table_key(
        self,
        p: Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> Key:
        key = super()._table_key(p, drawn, waste, reserve, foundations, redeals_left)
        # The position itself, read without the first pass's places.
        position = (
            p.cards[drawn:],
            tuple(p.cards[i] for i in range(drawn) if waste >> i & 1),
            reserve,
            foundations,
            redeals_left,
        )
        assert self.seen.setdefault(key, position) == position, "two positions, one key"
        self.passes_of.setdefault(key, set()).add(p.key)
        return key


@pytest.mark.parametrize(("variant", "seed"), [("pysolfc", 1), ("pysolfc-8", 2), ("pysolfc", 387)])
def test_a_key_stands_for_one_position_and_some_for_one_met_in_two_passes(
    variant: str, seed: int
) -> None:
    search = _Recording(new_game(seed, variant), 40_000)
    search.run()
    assert len(search.seen) > 10_000
    # The point of the keys: positions met again from another pass.
    assert sum(len(passes) > 1 for passes in search.passes_of.values()) > 100


def test_a_position_reached_in_two_passes_is_one_key() -> None:
    # The first card of pysolfc deal 1 goes up in the first pass, or in the
    # second: either way, once it is up, the second pass holds the same
    # cards from the same places, with the same foundations and reserve.
    start = Position(new_game(1, "pysolfc"))
    search = Search(start, None, None)
    length = len(start.cards)
    reserve, foundations = start.reserve, start.foundations
    # Up in the first pass: the pass after the redeal lacks the card at 0.
    lacking = search._pass(1, start.cards[1:], tuple(range(1, length)))
    up_before = search._table_key(lacking, 0, 0, reserve, foundations, 1)
    # Up in the second: that pass holds every card, and the one at 0 went up.
    whole = search._pass(1, start.cards, tuple(range(length)))
    up_after = search._table_key(whole, 1, 0, reserve, foundations, 1)
    assert up_before == up_after
    # Keyed by the pass, as before, they were two.
    assert (lacking.key, 0, 0) != (whole.key, 1, 0)
    # Different positions stay apart: the card at 0 on the waste, not up; the
    # same cards with a redeal more to come.
    assert search._table_key(whole, 1, 1, reserve, foundations, 1) != up_before
    first = search._pass(2, start.cards)
    assert search._table_key(first, 1, 0, reserve, foundations, 2) != up_before


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_deal_proved_lost_is_proved_in_fewer_positions(engine: Engine) -> None:
    # pysolfc 909 needed 47,330 positions keyed by the pass, 21,328 now.
    solution = solve(new_game(909, "pysolfc"), max_nodes=30_000, engine=engine)
    assert (solution.status, solution.nodes) == ("lost", 21_328)


def test_a_pass_met_again_is_read_by_its_own_places_in_both_engines() -> None:
    # A pass met again from another line keeps the places it was first met
    # with, which differ from that line's where two copies of a card lie
    # side by side: the core read the new pass by the old line's places,
    # and on this deal searched 4 positions more than the reference.
    state = new_game(20, "pysolfc")
    core = solve(state, max_nodes=100_000, engine="c")
    assert core == solve(state, max_nodes=100_000, engine="python")
    assert (core.status, core.nodes) == ("won", 71_004)
