"""Automatic moves and Finish: appended by the server in the player's own call."""

from __future__ import annotations

import pytest

from games.engine import apply, finish_line, new_game, replay
from games.engine.solver.greedy import greedy_move
from games.models import Move, Player
from games.moderation.flags import game_move_times
from games.store.selectors import game_state, game_timing
from games.store.services import MoveRejected, game_append_move, game_create
from tests.store.helpers import client_id

# pysolfc deal 2: after the first draw, slot a's ace and slot d's ace go up safely.
DEAL, RUN = 2, ("a7", "d8")
# pysolfc deal 180: greedy play wins it, and can be finished 14 moves from the end.
FINISHABLE = 180

pytestmark = pytest.mark.django_db


def _move(game, player, token, *, automatic=False, seq=None, move_id=None):
    game.refresh_from_db()
    return game_append_move(
        game_id=game.pk,
        player=player,
        token=token,
        client_move_id=move_id or client_id(),
        expected_seq=game.last_seq if seq is None else seq,
        automatic_moves=automatic,
    )


def _log(game):
    return list(Move.objects.filter(game=game).order_by("seq").values_list("token", "automatic"))


def test_safe_moves_follow_a_move_in_the_same_call_each_logged_as_automatic(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    result = _move(game, alice, "draw", automatic=True)
    assert result.automatic == RUN
    assert result.seq == 3
    assert _log(game) == [("draw", False), ("a7", True), ("d8", True)]
    assert [e.get("automatic", False) for e in result.events] == [False, True, True]
    assert result.state == replay(DEAL, "pysolfc", ["draw", *RUN])
    game.refresh_from_db()
    assert game_state(game=game) == result.state


def test_no_move_is_made_for_a_player_who_did_not_ask(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    result = _move(game, alice, "draw")
    assert result.automatic == ()
    assert _log(game) == [("draw", False)]


def test_an_undo_takes_back_the_players_move_with_the_automatic_moves_after_it(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    _move(game, alice, "draw", automatic=True)
    result = _move(game, alice, "undo", automatic=True)
    assert result.state == new_game(DEAL, "pysolfc")
    assert _log(game)[3:] == [("undo", False), ("undo", True), ("undo", True)]
    assert result.automatic == ("undo", "undo")


def test_the_undo_takes_the_automatic_run_back_even_with_the_setting_now_off(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    _move(game, alice, "draw", automatic=True)
    result = _move(game, alice, "undo", automatic=False)
    assert result.state == new_game(DEAL, "pysolfc")
    assert result.moves == 0


def test_a_retried_move_gets_its_automatic_moves_back_too(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    first = _move(game, alice, "draw", automatic=True, move_id="m1")
    again = _move(game, alice, "draw", automatic=True, seq=0, move_id="m1")
    assert again.duplicate
    assert (again.seq, again.automatic, again.state) == (first.seq, first.automatic, first.state)


def test_timing_and_anticheat_count_only_the_players_own_moves(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    _move(game, alice, "draw", automatic=True)
    _move(game, alice, "draw", automatic=True)
    assert Move.objects.filter(game=game).count() > 2
    assert game_timing(game=game).moves == 2
    assert len(game_move_times(game=game)) == 2


def test_finish_plays_the_game_out_as_automatic_moves(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=FINISHABLE)
    state = new_game(FINISHABLE, "pysolfc")
    while finish_line(state) is None:
        state = _move(game, alice, greedy_move(state) or "").state
    line = finish_line(state)
    result = _move(game, alice, "finish")
    assert result.token == "finish"
    assert result.automatic == tuple(line or ())
    assert result.state.status == "won"
    game.refresh_from_db()
    assert game.status == "won"
    assert all(automatic for _, automatic in _log(game)[-len(result.automatic) :])


def test_finish_is_refused_while_a_choice_remains(alice: Player):
    game = game_create(player=alice, variant="pysolfc", seed=FINISHABLE)
    with pytest.raises(MoveRejected) as refused:
        _move(game, alice, "finish")
    assert refused.value.code == "illegal"
    assert _log(game) == []


def test_the_engine_agrees_with_the_log(alice: Player):
    # The log alone replays to the state: automatic moves need nothing new to replay.
    game = game_create(player=alice, variant="pysolfc", seed=DEAL)
    _move(game, alice, "draw", automatic=True)
    _move(game, alice, "draw", automatic=True)
    tokens = [t for t, _ in _log(game)]
    state = new_game(DEAL, "pysolfc")
    for token in tokens:
        state = apply(state, token)
    game.refresh_from_db()
    assert state == game_state(game=game)
