"""The logs cannot be rewritten: not by the ORM, not by raw SQL."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from games.models import AppendOnlyError, ModerationAction, Move
from games.moderation.services import game_flag
from games.store.services import game_create
from tests.store.helpers import append, log_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_game(alice):
    game = game_create(player=alice, variant="sultan", seed=99)
    append(game, alice, "draw")
    append(game, alice, "draw")
    return game


def _raw(sql: str, params: list[int | str]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_raw_sql_update_on_the_move_table_fails(logged_game):
    before = log_of(logged_game)
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("UPDATE games_move SET token = %s WHERE game_id = %s", ["w3", logged_game.pk])
    assert log_of(logged_game) == before


def test_raw_sql_delete_on_the_move_table_fails(logged_game):
    before = log_of(logged_game)
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("DELETE FROM games_move WHERE game_id = %s", [logged_game.pk])
    assert log_of(logged_game) == before


def test_the_orm_refuses_to_change_or_delete_a_move(logged_game):
    move = Move.objects.get(game=logged_game, seq=1)
    move.token = "w3"
    with pytest.raises(AppendOnlyError):
        move.save()
    with pytest.raises(AppendOnlyError):
        move.delete()
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(game=logged_game).update(token="w3")
    with pytest.raises(AppendOnlyError):
        Move.objects.filter(game=logged_game).delete()
    assert [token for _, token, _ in log_of(logged_game)] == ["draw", "draw"]


def test_raw_sql_cannot_rewrite_the_moderation_log(logged_game, moderator):
    action = game_flag(game=logged_game, moderator=moderator, reason="odd timing")
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("UPDATE games_moderationaction SET reason = %s WHERE id = %s", ["nothing", action.pk])
    with pytest.raises(DatabaseError, match="append-only"):
        _raw("DELETE FROM games_moderationaction WHERE id = %s", [action.pk])
    assert ModerationAction.objects.get(pk=action.pk).reason == "odd timing"


def test_the_moderation_log_survives_the_moderators_account(logged_game, moderator):
    action = game_flag(game=logged_game, moderator=moderator, reason="odd timing")
    User.objects.filter(pk=moderator.pk).delete()
    action = ModerationAction.objects.get(pk=action.pk)
    assert action.moderator is None
    assert action.moderator_name == "moderator"
    assert action.reason == "odd timing"
