"""The solver at work for players: hints, winnable deals, where a game was lost."""

from __future__ import annotations

import pytest

from games.analysis import game_analysis, winnable_seed
from games.engine import apply, legal_moves, new_game, replay
from games.engine.solver import solve
from games.models import Player, Race
from games.race_services import race_create
from games.services import game_append_move, game_create
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
    assert response.json() == {"type": "hint", "status": "lost", "move": None}


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
    from games.race_services import RaceRefused

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
    analysis = game_analysis(game=game)
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
    assert game_analysis(game=game).verdict == "won"


def test_the_analysis_stays_closed_while_the_replay_is(alice: Player, bob: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    _play(game, alice, recorded_game(careless_policy)[:5])
    assert client_for(alice).get(f"/api/games/{game.pk}/analysis").status_code == 403
    assert client_for(bob).get(f"/api/games/{game.pk}/analysis").status_code in (403, 404)
