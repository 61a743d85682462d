"""The append path: one service writes the log and its projection, or writes nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.engine import legal_moves, new_game, replay
from games.models import Game, Player
from games.store.selectors import game_state
from games.store.services import MoveRejected, game_append_move, game_create, game_resign
from tests.store.helpers import append, client_id, greedy_move, log_of, play_to_end

pytestmark = pytest.mark.django_db


def rejected(
    game: Game, player: Player, token: str, expected_seq: int | None = None
) -> MoveRejected:
    before = log_of(game)
    with pytest.raises(MoveRejected) as caught:
        append(game, player, token, expected_seq)
    assert log_of(game) == before
    return caught.value


def test_it_appends_moves_with_consecutive_seqs_and_updates_the_projection(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    first = append(game, alice, "draw")
    second = append(game, alice, greedy_move(first.state))
    game.refresh_from_db()
    assert (first.seq, second.seq) == (1, 2)
    assert [seq for seq, _, _ in log_of(game)] == [1, 2]
    assert game.last_seq == 2
    assert game.status == "playing"
    assert game.cards_played == second.state.cards_played
    assert second.state == replay(7, "sultan", ["draw", second.token])
    assert first.events[0]["type"] == "move"
    assert not first.duplicate


def test_it_draws_a_secret_seed_when_none_is_given(alice):
    seeds = {game_create(player=alice, variant="sultan").seed for _ in range(5)}
    assert len(seeds) == 5
    assert all(0 <= s < 2**63 for s in seeds)


def test_it_rejects_a_stale_expected_seq_with_the_current_seq(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    append(game, alice, "draw")
    error = rejected(game, alice, "draw", expected_seq=0)
    assert error.code == "conflict"
    assert error.current_seq == 1


def test_it_returns_the_original_result_for_a_retried_client_move_id(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    original = game_append_move(
        game_id=game.pk, player=alice, token="draw", client_move_id="m-1", expected_seq=0
    )
    append(game, alice, "draw")
    before = log_of(game)
    retry = game_append_move(
        game_id=game.pk, player=alice, token="draw", client_move_id="m-1", expected_seq=0
    )
    assert retry.duplicate
    assert (retry.seq, retry.token, retry.events, retry.state) == (
        original.seq,
        original.token,
        original.events,
        original.state,
    )
    assert log_of(game) == before


def test_it_refuses_a_client_move_id_reused_for_another_move(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    game_append_move(
        game_id=game.pk, player=alice, token="draw", client_move_id="m-1", expected_seq=0
    )
    before = log_of(game)
    with pytest.raises(MoveRejected) as caught:
        game_append_move(
            game_id=game.pk, player=alice, token="resign", client_move_id="m-1", expected_seq=1
        )
    assert caught.value.code == "conflict"
    assert log_of(game) == before


@pytest.mark.parametrize("token", ["redeal", "draw", "zz"])
def test_a_reused_client_move_id_at_the_current_seq_is_a_conflict_whatever_the_move(alice, token):
    """One mistake, one code: an illegal (`redeal` with a full stock), a legal or a
    malformed move under an id already used is refused for the id first."""
    game = game_create(player=alice, variant="sultan", seed=7)
    game_append_move(
        game_id=game.pk, player=alice, token="draw", client_move_id="m-1", expected_seq=0
    )
    before = log_of(game)
    with pytest.raises(MoveRejected) as caught:
        game_append_move(
            game_id=game.pk, player=alice, token=token, client_move_id="m-1", expected_seq=1
        )
    assert (caught.value.code, caught.value.current_seq) == ("conflict", 1)
    assert log_of(game) == before


@pytest.mark.parametrize(("token", "code"), [("zz", "invalid"), ("W3", "invalid"), ("", "invalid")])
def test_it_rejects_tokens_that_are_not_notation(alice, token, code):
    game = game_create(player=alice, variant="sultan", seed=7)
    assert rejected(game, alice, token).code == code


def test_it_rejects_an_illegal_move_with_the_engines_reason(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    state = new_game(7, "sultan")
    illegal = next(f"w{n}" for n in range(1, 10) if f"w{n}" not in legal_moves(state))
    error = rejected(game, alice, illegal)
    assert error.code == "illegal"
    assert "waste is empty" in error.message
    game.refresh_from_db()
    assert game.last_seq == 0


def test_it_rejects_move_after_finish(alice):
    game = play_to_end(game_create(player=alice, variant="sultan", seed=11), alice)
    assert game.status in ("won", "lost")
    assert game.finished_at is not None
    for token in ("draw", "undo", "resign"):
        assert rejected(game, alice, token).code == "finished"


def test_it_makes_a_resignation_final(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    append(game, alice, "draw")
    result = game_resign(game_id=game.pk, player=alice, client_move_id="bye", expected_seq=1)
    assert result.events == [{"type": "status", "status": "resigned"}]
    game.refresh_from_db()
    assert game.status == "resigned"
    assert game_state(game=game).status == "resigned"
    assert rejected(game, alice, "draw").code == "finished"


def test_it_rejects_moves_on_another_players_game(alice, charlie):
    game = game_create(player=alice, variant="sultan", seed=7)
    assert rejected(game, charlie, "draw").code == "forbidden"


def test_it_rejects_a_banned_players_moves(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    Player.objects.filter(pk=alice.pk).update(banned_at=timezone.now())
    assert rejected(game, alice, "draw").code == "banned"


def test_it_takes_back_moves_in_practice(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    append(game, alice, "draw")
    taken_back = append(game, alice, "undo")
    assert taken_back.events == [{"type": "undo"}]
    assert taken_back.state == new_game(7, "sultan")
    assert rejected(game, alice, "undo").code == "illegal"


def test_a_race_games_moves_are_the_races_not_the_stores(alice, running_race):
    """The store knows no race's rules: a race game's moves go through games.races.moves."""
    game = game_create(player=alice, variant="sultan", race=running_race)
    with pytest.raises(ValueError, match="race_move"):
        game_append_move(
            game_id=game.pk, player=alice, token="draw", client_move_id="m1", expected_seq=0
        )
    assert log_of(game) == []


def test_a_race_game_plays_the_race_deal(alice, running_race):
    game = game_create(player=alice, variant="sultan", race=running_race)
    assert game.seed == running_race.seed
    with pytest.raises(ValueError, match="race's variant"):
        game_create(player=alice, variant="pysolfc", race=running_race)


def test_it_sets_the_start_of_a_race_game_from_the_race(alice, running_race):
    game = game_create(player=alice, variant="sultan", race=running_race)
    assert game.started_at == running_race.starts_at


def test_it_rejects_an_overlong_client_move_id(alice):
    game = game_create(player=alice, variant="sultan", seed=7)
    with pytest.raises(MoveRejected) as caught:
        game_append_move(
            game_id=game.pk, player=alice, token="draw", client_move_id="x" * 65, expected_seq=0
        )
    assert caught.value.code == "invalid"
    assert log_of(game) == []


def test_an_unknown_game_looks_like_someone_elses(alice):
    with pytest.raises(MoveRejected) as caught:
        game_append_move(
            game_id=987654, player=alice, token="draw", client_move_id=client_id(), expected_seq=0
        )
    assert caught.value.code == "forbidden"
