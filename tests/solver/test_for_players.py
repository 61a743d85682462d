"""The solver at work for players: hints, winnable deals, where a game was lost."""

from __future__ import annotations

import pytest

from games.engine import apply, legal_moves, new_game, replay
from games.engine.solver.lines import ANALYSIS_PROBE_NODES, bracket_next_probe, line_analysis
from games.engine.solver.solve import solve
from games.engine.solver.winnable import winnable_seed
from games.models import Player, Race
from games.races.protocol import own_view
from games.races.services import race_create
from games.replays.analysis import game_analysis
from games.store.services import game_append_move, game_create, game_resign
from tests.pages.helpers import client_for, post_json
from tests.races.helpers import SEED, VARIANT, careless_policy, good_policy, recorded_game

pytestmark = pytest.mark.django_db


def _play(game, player, tokens):
    for seq, token in enumerate(tokens):
        game_append_move(
            game_id=game.pk, player=player, token=token, client_move_id=f"m{seq}", expected_seq=seq
        )


def test_a_hint_is_the_first_move_of_a_line_that_wins(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    response = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {})
    assert response.status_code == 200
    hint = response.json()
    assert hint["status"] == "won"
    assert hint["move"] in legal_moves(new_game(SEED, VARIANT))
    after = apply(new_game(SEED, VARIANT), hint["move"])
    assert solve(after, max_seconds=10).status == "won"


def test_a_hint_says_so_when_no_line_wins(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    tokens = recorded_game(careless_policy)[:-1]  # one move before the careless loss
    _play(game, alice, tokens)
    response = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {})
    assert response.json() == {
        "type": "hint",
        "status": "lost",
        "move": None,
        "shown": [],
        "reach": None,
        "reason": "",
    }


# Sultan deal 34 is still undecided after 20 million positions, more than a hint
# may search (deal 4 was, until the wide rounds past a million won it).
UNDECIDED_SEED = 34


def test_an_undecided_hint_offers_the_solvers_furthest_line(alice: Player):
    game = game_create(player=alice, variant="sultan", seed=UNDECIDED_SEED)
    response = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {})
    hint = response.json()
    assert hint["status"] == "unknown"
    start = new_game(UNDECIDED_SEED, "sultan")
    assert hint["move"] in legal_moves(start)
    assert 0 < hint["reach"] < 95


def test_the_furthest_line_plays_to_the_most_cards_up_the_search_met():
    start = new_game(UNDECIDED_SEED, "sultan")
    small, large = (solve(start, max_nodes=n) for n in (2_000, 200_000))
    assert small.status == large.status == "unknown"
    ends = [replay(UNDECIDED_SEED, "sultan", list(s.furthest)) for s in (small, large)]
    assert all(end.status == "playing" for end in ends)
    # A larger search meets every position the smaller one met first.
    assert 0 < ends[0].cards_played <= ends[1].cards_played


def test_there_is_no_hint_in_a_race(alice: Player, bob: Player):
    race = race_create(host=alice, variant=VARIANT)
    race.status = "running"
    race.save()
    game = game_create(player=alice, variant=VARIANT, race=race)
    response = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {})
    assert response.status_code == 403
    assert "move" not in response.json()


def test_there_is_no_hint_on_someone_elses_game(alice: Player, bob: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    response = post_json(client_for(bob), f"/api/games/{game.pk}/hint", {})
    assert response.status_code == 403


def test_a_winnable_deal_is_one_the_solver_proved(alice: Player):
    race = race_create(host=alice, variant="sultan", winnable=True)
    assert race.winnable_deal
    assert not race.open_deal
    assert solve(new_game(race.seed, "sultan"), max_seconds=20).status == "won"


def test_winnable_seed_gives_up_within_its_budget():
    assert winnable_seed(variant="sultan", budget_s=0.0) is None


def test_a_race_cannot_be_both_an_open_and_a_winnable_deal(alice: Player):
    from games.races.services import RaceRefused

    with pytest.raises(RaceRefused) as refused:
        race_create(host=alice, variant="sultan", deal=5, winnable=True)
    assert refused.value.code == "bad_request"
    assert not Race.objects.exists()


def test_the_analysis_finds_a_position_from_which_the_lost_game_could_still_be_won(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    tokens = recorded_game(careless_policy)
    _play(game, alice, tokens)
    game.refresh_from_db()
    assert game.status == "lost"
    analysis = game_analysis(game=game, player_id=None, address="127.0.0.1")
    assert analysis.verdict == "lost_after"
    assert analysis.seq is not None
    assert analysis.seq < len(tokens)
    from_there = replay(SEED, VARIANT, tokens[: analysis.seq])
    assert replay(SEED, VARIANT, tokens[: analysis.seq] + list(analysis.line)).status == "won"
    assert from_there.status == "playing"


def test_a_won_game_needs_no_analysis(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    _play(game, alice, recorded_game(good_policy))
    game.refresh_from_db()
    assert game_analysis(game=game, player_id=None, address="127.0.0.1").verdict == "won"


def test_the_analysis_stays_closed_while_the_replay_is(alice: Player, bob: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    _play(game, alice, recorded_game(careless_policy)[:5])
    assert client_for(alice).get(f"/api/games/{game.pk}/analysis").status_code == 403
    assert client_for(bob).get(f"/api/games/{game.pk}/analysis").status_code in (403, 404)


def _greedy_line(seed: int, variant: str):
    state = new_game(seed, variant)
    states = [state]
    while state.status == "playing":
        state = apply(state, good_policy(legal_moves(state)))
        states.append(state)
    return states


def test_the_analysis_walks_back_from_the_end_when_the_deal_is_slow_to_solve():
    states = _greedy_line(8, "sultan")
    assert states[-1].status == "lost"
    # A binary search that starts from the deal would stop at once here.
    assert solve(states[0], max_nodes=ANALYSIS_PROBE_NODES).status == "unknown"
    seqs = list(range(len(states)))
    # Probes bound by nodes only: the same answer on any machine.
    analysis = line_analysis(states=states, seqs=seqs, budget_s=120, probe_s=120)
    assert analysis.verdict == "lost_after"
    assert analysis.exact
    assert analysis.seq is not None
    assert analysis.lost_seq == analysis.seq + 1
    won = states[analysis.seq]
    for token in analysis.line:
        won = apply(won, token)
    assert won.status == "won"
    assert solve(states[analysis.lost_seq], max_nodes=2_000_000).status == "lost"


def test_a_game_resigned_while_still_winnable_has_no_lost_move(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    _play(game, alice, recorded_game(good_policy)[:3])
    game_resign(game_id=game.pk, player=alice, client_move_id="r", expected_seq=3)
    game.refresh_from_db()
    response = client_for(alice).get(f"/api/games/{game.pk}/analysis")
    assert response.status_code == 200
    answer = response.json()
    assert answer["verdict"] == "lost_after"
    assert answer["seq"] == 3
    assert answer["lost_seq"] is None
    assert answer["exact"] is False


def test_the_next_probe_halves_the_widest_stretch_no_probe_failed_to_decide():
    def after(won: int | None, lost: int | None, *undecided: int) -> int | None:
        return bracket_next_probe(won=won, lost=lost, undecided=list(undecided), count=201)

    assert after(None, 200, 150) == 0  # the deal first
    assert after(10, 20) == 15
    assert after(0, 100, 80) == 40
    assert after(0, 100, 50) == 75  # a tie: the later stretch, cheaper to decide
    assert after(10, 11) is None  # exact
    assert after(10, 13, 11, 12) is None  # every position in between undecided
    assert after(200, None) is None  # still winnable at the end


def test_the_analysis_plays_its_winning_line_out_for_the_board(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    tokens = recorded_game(careless_policy)
    _play(game, alice, tokens)
    data = client_for(alice).get(f"/api/games/{game.pk}/analysis").json()
    assert data["verdict"] == "lost_after"
    steps = data["steps"]
    assert [s["token"] for s in steps] == data["line"]
    state = replay(SEED, VARIANT, tokens[: data["seq"]])
    for step in steps:
        state = apply(state, step["token"])
        assert step["view"] == own_view(state, step["seq"])
    assert steps[-1]["view"]["status"] == "won"
