"""A player deletes their account: name, e-mail and sessions go, their games stay under
"deleted player", no move is edited, and the old name shows nowhere afterwards."""

from __future__ import annotations

import io
import re

import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client
from prometheus_client import REGISTRY, generate_latest

from games.models import DELETED_NICKNAME, Game, Move, Player, Race
from games.moderation.services import game_flag
from games.races.services import race_create, race_join, race_start
from games.store.services import game_create
from tests.pages.conftest import race_play, race_resign
from tests.pages.helpers import client_for
from tests.store.helpers import append

pytestmark = pytest.mark.django_db

NAME = "zephyrine"
EMAIL = "zephyrine.q@example.test"
PASSWORD = "a long and private passphrase"
OLD = re.compile(r"zephyrine", re.IGNORECASE)


@pytest.fixture
def zephyrine(alice: Player) -> Player:
    """alice, under a name found nowhere else, with a password and an e-mail address."""
    user = alice.user
    assert user is not None
    user.username, user.email = NAME, EMAIL
    user.set_password(PASSWORD)
    user.save()
    alice.nickname = NAME
    alice.save()
    return alice


@pytest.fixture
def her_games(zephyrine: Player, bob: Player, moderator: User) -> dict[str, Game | Race]:
    race = race_create(host=zephyrine, variant="sultan", time_limit_s=900, seat_limit=4)
    race_join(race=race, player=bob)
    race_start(race=race, player=zephyrine, countdown_s=0)
    race.refresh_from_db()
    race_play(race, zephyrine, 3)
    race_play(race, bob, 2)
    race_resign(race, zephyrine)
    race_resign(race, bob)
    race_game = Game.objects.get(race=race, player=zephyrine)
    practice = game_create(player=zephyrine, variant="sultan", seed=77)
    append(practice, zephyrine, "draw")
    append(practice, zephyrine, "resign")
    game_flag(game=race_game, moderator=moderator, reason="looked at in a test")
    # The admin's history quotes objects by name, as a moderator's edit would leave it.
    LogEntry.objects.log_actions(
        user_id=moderator.pk, queryset=[zephyrine], action_flag=CHANGE, change_message="banned"
    )
    # A failed log-in under her name, kept by django-axes.
    Client(REMOTE_ADDR="203.0.113.9").post("/accounts/login/", {"username": NAME, "password": "x"})
    assert AccessAttempt.objects.filter(username=NAME).exists()
    return {"race": race, "race_game": race_game, "practice": practice}


def _log(game: Game) -> list[tuple[int, str, object]]:
    return list(
        Move.objects.filter(game=game).order_by("seq").values_list("seq", "token", "accepted_at")
    )


def test_a_wrong_password_deletes_nothing(zephyrine: Player):
    client = client_for(zephyrine)
    response = client.post("/accounts/delete/", {"password": "not it"})
    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    assert User.objects.filter(username=NAME).exists()


def test_the_page_asks_for_the_password_and_says_what_stays(zephyrine: Player):
    page = client_for(zephyrine).get("/accounts/delete/").content.decode()
    assert 'type="password"' in page
    assert "Your games stay" in page
    assert Client().get("/accounts/delete/").status_code == 302  # signed in only


def test_a_staff_account_is_not_deleted_from_its_page(moderator: User):
    moderator.set_password(PASSWORD)
    moderator.save()
    client = Client()
    client.force_login(moderator)
    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 400
    assert User.objects.filter(pk=moderator.pk).exists()


def test_after_deletion_her_name_and_address_are_nowhere(
    zephyrine: Player, bob: Player, moderator: User, her_games: dict[str, Game | Race]
):
    race, race_game, practice = her_games["race"], her_games["race_game"], her_games["practice"]
    assert isinstance(race_game, Game)
    assert isinstance(practice, Game)
    assert isinstance(race, Race)
    logs_before = {g.pk: _log(g) for g in (race_game, practice)}
    her_client, other_tab = client_for(zephyrine), client_for(zephyrine)
    user_id = zephyrine.user_id
    assert user_id is not None

    response = her_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 200
    assert "Your account is deleted" in response.content.decode()

    # The person is gone; the player and every game stay, logs untouched.
    assert not User.objects.filter(pk=user_id).exists()
    player = Player.objects.get(pk=zephyrine.pk)
    assert (player.nickname, player.user_id) == (DELETED_NICKNAME, None)
    assert player.deleted_at is not None
    assert {g.pk: _log(g) for g in (race_game, practice)} == logs_before
    assert Game.objects.filter(player=player).count() == 2
    # Every session of hers ended, this one and any other device's.
    for client in (her_client, other_tab):
        assert "Log in" in client.get("/").content.decode()
        assert client.get("/accounts/delete/").status_code == 302

    # Nothing anyone can open shows the old name or address.
    staff = Client()
    moderator.is_superuser = True
    moderator.save()
    staff.force_login(moderator)
    seen = []
    for client, path in (
        (Client(), "/"),
        (client_for(bob), "/history/"),
        (Client(), f"/r/{race.code}/"),
        (Client(), f"/games/{race_game.pk}/replay/"),
        (Client(), f"/api/games/{race_game.pk}/replay"),
        (Client(), f"/games/{race_game.pk}/record.txt"),
        (staff, f"/games/{practice.pk}/record.txt"),
        (staff, "/admin/games/player/"),
        (staff, f"/admin/games/player/{player.pk}/change/"),
        (staff, f"/admin/games/game/{race_game.pk}/change/"),
        (staff, "/admin/games/game/"),
        (staff, "/admin/games/race/"),
        (staff, "/admin/games/moderationaction/"),
        (staff, "/admin/auth/user/"),
        (staff, "/admin/"),
        (staff, "/admin/axes/accessattempt/"),
        (staff, "/admin/axes/accesslog/"),
    ):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        text = response.content.decode()
        assert not OLD.search(text), path
        seen.append((path, response.status_code))
    # A moderator searching for her by name or address finds nobody.
    for query in (NAME, EMAIL):
        found = staff.get("/admin/games/player/", {"q": query})
        assert found.context["cl"].result_count == 0, query
    replay = Client().get(f"/api/games/{race_game.pk}/replay").content.decode()
    assert DELETED_NICKNAME in replay
    assert (
        DELETED_NICKNAME in staff.get(f"/admin/games/game/{race_game.pk}/change/").content.decode()
    )
    export = io.StringIO()
    call_command("export_game", str(race_game.pk), stdout=export)
    assert not OLD.search(export.getvalue())
    assert DELETED_NICKNAME in export.getvalue()

    # No row of any table, and no metric label.
    for model in apps.get_models():
        for row in model._default_manager.values():
            assert not OLD.search(str(row)), (model._meta.label, row)
    assert not OLD.search(generate_latest(REGISTRY).decode())

    # The store still checks clean.
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert re.search(r"\b0 with mismatches", out.getvalue()), out.getvalue()
    assert ContentType.objects.get_for_model(Player)  # the admin history kept its entries
    assert LogEntry.objects.filter(object_id=str(player.pk)).exists()


def test_an_administrator_deleting_a_user_forgets_the_name_the_same_way(
    zephyrine: Player, moderator: User
):
    moderator.is_superuser = True
    moderator.save()
    staff = Client()
    staff.force_login(moderator)
    user_id = zephyrine.user_id
    response = staff.post(f"/admin/auth/user/{user_id}/delete/", {"post": "yes"})
    assert response.status_code == 302
    player = Player.objects.get(pk=zephyrine.pk)
    assert (player.nickname, player.user_id) == (DELETED_NICKNAME, None)
    assert player.deleted_at is not None
    assert not OLD.search(str(list(Player.objects.values())))
    # The admin logged the deletion under the user's name; that quote goes too.
    assert LogEntry.objects.filter(object_id=str(user_id)).exists()
    assert not OLD.search(str(list(LogEntry.objects.values())))
