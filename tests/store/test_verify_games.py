"""verify_games replays the logs and catches a projection that does not match."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.moderation.services import game_flag, game_reinstate, game_void
from games.store.services import game_create
from tests.store.helpers import append

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(alice, bob):
    first = game_create(player=alice, variant="sultan", seed=1)
    second = game_create(player=bob, variant="pysolfc", seed=2)
    for _ in range(3):
        append(first, alice, "draw")
        append(second, bob, "draw")
    return first, second


def test_it_passes_untouched_games(games, capsys):
    call_command("verify_games")
    assert "2 games replayed, 0 with mismatches" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("field", "value"),
    [("cards_played", 7), ("last_seq", 2), ("flagged", True), ("voided", True)],
)
def test_it_finds_a_tampered_projection(games, capsys, field, value):
    first, second = games
    Game.objects.filter(pk=second.pk).update(**{field: value})
    with pytest.raises(CommandError, match="2 games replayed, 1 with mismatches"):
        call_command("verify_games")
    out = capsys.readouterr().out
    assert f"game #{second.pk}" in out
    assert f"game #{first.pk}" not in out


def test_it_accepts_a_flag_recorded_by_a_moderator(games, moderator, capsys):
    game_flag(game=games[0], moderator=moderator, reason="fast")
    call_command("verify_games", str(games[0].pk))
    assert "1 games replayed, 0 with mismatches" in capsys.readouterr().out


def test_it_accepts_a_void_taken_back_and_catches_one_still_counted(games, moderator, capsys):
    game = games[0]
    game_void(game=game, moderator=moderator, reason="collusion")
    game_reinstate(game=game, moderator=moderator, reason="cleared on appeal")
    call_command("verify_games", str(game.pk))
    assert "1 games replayed, 0 with mismatches" in capsys.readouterr().out
    # The log says the result counts again; a projection still void contradicts it.
    Game.objects.filter(pk=game.pk).update(voided=True)
    with pytest.raises(CommandError, match="1 games replayed, 1 with mismatches"):
        call_command("verify_games", str(game.pk))


def test_it_names_unknown_games(games):
    with pytest.raises(CommandError, match="no such game: 999999"):
        call_command("verify_games", "999999")
