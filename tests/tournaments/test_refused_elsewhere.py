"""A player queued in a tournament races only its races: every page, API path and
socket message that would seat them elsewhere answers with the refusal, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.accounts.services import player_for_user
from games.api.services import token_create
from games.challenges.services import challenge_create
from games.friends.services import follow_create
from games.models import Game, Player, Race
from games.races.services import race_create
from games.tournaments.services import tournament_create, tournament_join
from tests.pages.conftest import finished_race, live_race  # noqa: F401 (alice and bob raced)
from tests.races.conftest import Lobby, lobby, started  # noqa: F401 (a race on the socket)
from tests.races.helpers import connect, db

IN_TOURNAMENT = "you are in the tournament Friday arena: pause it to race elsewhere"


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_S = 0


def _queued(player: Player) -> None:
    """`player` in the queue of a running tournament an account made."""
    maker = User.objects.get_or_create(username="arena-maker")[0]
    tournament = tournament_create(
        creator=player_for_user(user=maker),
        name="Friday arena",
        variant="sultan",
        minutes=30,
        seat_limit=2,
        automatic_moves=False,
        public=True,
    )
    tournament_join(tournament=tournament, player=player)


@pytest.fixture
def queued_charlie(client: Client, charlie: Player) -> Player:
    assert charlie.user is not None
    client.force_login(charlie.user)
    _queued(charlie)
    return charlie


def _refused_page(response: Any) -> None:
    assert response.status_code in (400, 409), response.status_code
    assert IN_TOURNAMENT.lower() in response.content.decode().lower()


@pytest.mark.django_db
def test_it_refuses_a_queued_player_a_new_race_with_the_refusal_page(
    client: Client, queued_charlie: Player
) -> None:
    form = {"variant": "sultan", "time_limit": "5", "seats": "4"}
    _refused_page(client.post("/races/new", form))
    assert not Race.objects.filter(host=queued_charlie).exists()


@pytest.mark.django_db
def test_it_refuses_a_queued_player_race_now_with_the_refusal_page(
    client: Client, queued_charlie: Player
) -> None:
    _refused_page(client.post("/races/now", {"variant": "sultan", "minutes": "5"}))


@pytest.mark.django_db
def test_it_refuses_a_queued_player_a_seat_in_a_lobby_with_the_refusal_page(
    client: Client, queued_charlie: Player, bob: Player
) -> None:
    race = race_create(host=bob, variant="sultan", time_limit_s=300)
    _refused_page(client.post(f"/r/{race.code}/join"))


@pytest.mark.django_db
def test_it_refuses_a_queued_player_the_daily_deal_with_the_refusal_page(
    client: Client, queued_charlie: Player
) -> None:
    _refused_page(client.post("/daily/play", {"variant": "sultan"}))


@pytest.mark.django_db
def test_it_refuses_a_queued_player_a_challenge_with_the_refusal_page(
    client: Client,
    queued_charlie: Player,
    finished_race: Race,  # noqa: F811
    bob: Player,
) -> None:
    recorded = Game.objects.get(race=finished_race, player=bob)
    challenge = challenge_create(player=bob, game=recorded)
    _refused_page(client.post(f"/c/{challenge.code}/take"))


@pytest.mark.django_db
def test_it_refuses_a_queued_player_an_invitation_with_a_message(
    client: Client, queued_charlie: Player, bob: Player
) -> None:
    follow_create(follower=queued_charlie, followee=bob)
    follow_create(follower=bob, followee=queued_charlie)  # friends: bob takes their invitations
    form = {"variant": "sultan", "time_limit": "5", "to": "bob"}
    response = client.post("/friends/invite", form, follow=True)
    assert response.status_code == 200
    assert IN_TOURNAMENT in response.content.decode()


@pytest.mark.django_db
def test_the_api_answers_a_queued_players_seat_with_409(charlie: Player, bob: Player) -> None:
    _queued(charlie)
    secret = token_create(player=charlie, name="bot", scope="play").secret
    race = race_create(host=bob, variant="sultan", time_limit_s=300)
    response = Client().post(
        f"/api/v1/races/{race.code}/join", headers={"Authorization": f"Bearer {secret}"}
    )
    assert response.status_code == 409
    assert response.json() == {"type": "error", "code": "in_tournament", "message": IN_TOURNAMENT}


async def test_the_race_socket_answers_a_queued_racers_rematch_with_an_error(
    started: Lobby,  # noqa: F811
) -> None:
    alice = await connect(started.race, started.keys["alice"])
    for name in ("alice", "bob", "charlie"):
        client = alice if name == "alice" else await connect(started.race, started.keys[name])
        await client.send({"type": "resign", "id": "r", "seq": 0})
        await client.receive_until("ack")
    await alice.receive_until("end")
    await db(_queued)(started.players["alice"])
    await alice.send({"type": "rematch"})
    answer = await alice.receive_until("error")
    assert answer["code"] == "in_tournament"
    await alice.close()
