"""Every read endpoint answers what its viewer could see on the pages, and no more."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.accounts.services import player_for_user
from games.api.services import token_create
from games.models import Game, Player, Race
from games.store.services import game_append_move, game_create
from tests.api.conftest import get
from tests.daily.helpers import attempt, resign, unseal
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db


def _practice_over(player: Player, seed: int = 777) -> Game:
    game = game_create(player=player, variant="sultan", seed=seed)
    game_append_move(
        game_id=game.pk, player=player, token="resign", client_move_id="r1", expected_seq=0
    )
    game.refresh_from_db()
    return game


def _ids(response) -> list[int]:
    return [row["id"] for row in response.json()["games"]]


JSON = "application/json"


def test_a_players_race_games_are_open_to_anyone(client: Client, finished_race: Race, alice):
    response = get(client, "/api/v1/players/alice/games", accept=JSON)
    assert response.status_code == 200
    rows = response.json()["games"]
    assert [row["race"] for row in rows] == [finished_race.code]
    assert rows[0]["deal"] == str(finished_race.seed)
    assert rows[0]["player"] == {
        "id": alice.pk,
        "nickname": "alice",
        "username": "alice",
        "bot": False,
    }


def test_a_practice_game_is_its_players_alone(
    client: Client, finished_race: Race, alice: Player, alice_read: str, bob_read: str
):
    practice = _practice_over(alice)
    assert practice.pk in _ids(get(client, "/api/v1/account/games", alice_read, accept=JSON))
    assert practice.pk not in _ids(
        get(client, "/api/v1/players/alice/games", bob_read, accept=JSON)
    )
    assert practice.pk not in _ids(get(client, "/api/v1/players/alice/games", accept=JSON))
    assert get(client, f"/api/v1/games/{practice.pk}", bob_read).status_code == 404
    own = get(client, f"/api/v1/games/{practice.pk}", alice_read)
    assert own.status_code == 200
    assert own.json()["record"].startswith("[")


def test_a_running_race_game_is_refused_even_to_its_player(
    client: Client, live_race: Race, alice: Player, alice_read: str
):
    game = Game.objects.get(race=live_race, player=alice)
    for path in (f"/api/v1/games/{game.pk}", f"/api/v1/games/{game.pk}/replay"):
        response = get(client, path, alice_read)
        assert response.status_code == 403
        assert response.json()["code"] == "race_running"
        assert not shows_number(response.content.decode(), live_race.seed)
    race = get(client, f"/api/v1/races/{live_race.code}", alice_read).json()
    assert "seed" not in race["race"]
    assert race["results"] is None
    assert live_race.code not in json.dumps(
        get(client, "/api/v1/account/games", alice_read, accept=JSON).json()
    )


def test_a_sealed_daily_deal_stays_sealed(client: Client, alice: Player, alice_read: str):
    game = resign(attempt(alice).game)
    refused = get(client, f"/api/v1/games/{game.pk}/replay", alice_read)
    assert refused.status_code == 403
    assert refused.json()["code"] == "sealed"
    listed = get(client, "/api/v1/account/games", alice_read, accept=JSON).json()["games"]
    assert [(row["id"], row["deal"]) for row in listed] == [(game.pk, None)]
    assert not shows_number(refused.content.decode(), game.seed)
    today = timezone.now().date().isoformat()
    day = get(client, f"/api/v1/daily/{today}", alice_read)
    assert day.status_code == 403
    assert day.json()["code"] == "day_not_over"
    assert game.race is not None
    unseal(game.race)
    assert get(client, f"/api/v1/games/{game.pk}/replay", alice_read).status_code == 200


def test_a_day_that_is_over_has_its_results(client: Client, alice: Player):
    yesterday = timezone.now() - timedelta(days=2)
    game = resign(attempt(alice, now=yesterday).game)
    day = yesterday.date().isoformat()
    response = get(client, f"/api/v1/daily/{day}?variant=sultan")
    assert response.status_code == 200
    body = response.json()
    assert [row["game"] for row in body["results"]] == [game.pk]
    assert body["deal"] == str(game.seed)


def test_a_finished_race_has_its_results(client: Client, finished_race: Race, alice, bob):
    response = get(client, f"/api/v1/races/{finished_race.code}")
    assert response.status_code == 200
    body = response.json()
    assert body["race"]["seed"] == str(finished_race.seed)
    assert {row["nickname"] for row in body["results"]} == {"alice", "bob"}
    assert all(row["bot"] is False for row in body["results"])
    replay = get(client, f"/api/v1/games/{body['results'][0]['game']}/replay")
    assert replay.status_code == 200


def test_a_token_carries_no_moderator_powers(client: Client, moderator: User, alice: Player):
    practice = _practice_over(alice)
    client.force_login(moderator)
    assert (
        get(client, f"/api/v1/games/{practice.pk}").status_code == 200
    )  # the session: a moderator
    client.logout()
    secret = token_create(player=player_for_user(user=moderator), name="m", scope="read").secret
    assert get(client, f"/api/v1/games/{practice.pk}", secret).status_code == 404


def _body(response) -> bytes:
    # The test client is synchronous; Daphne sends the stream as it is read
    # (tests/bots/test_live.py reads one over HTTP).
    return b"".join(response)


@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous iterators")
def test_games_stream_as_ndjson_by_default(client: Client, finished_race: Race, alice, alice_read):
    for seed in (1, 2, 3):
        _practice_over(alice, seed)
    response = get(client, "/api/v1/account/games", alice_read)
    assert response["Content-Type"] == "application/x-ndjson"
    lines = _body(response).decode().splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 4
    assert [row["finished_at"] for row in rows] == sorted(
        (r["finished_at"] for r in rows), reverse=True
    )
    capped = get(client, "/api/v1/account/games?max=2", alice_read, accept="application/x-ndjson")
    assert len(_body(capped).splitlines()) == 2


def test_games_filter_by_variant_and_date_and_page(client: Client, alice: Player, alice_read: str):
    for seed in range(5):
        _practice_over(alice, seed)
    page = get(client, "/api/v1/account/games?per_page=2", alice_read, accept=JSON)
    assert "Accept" in page["Vary"]  # the same address streams for another Accept
    first = page.json()
    assert (len(first["games"]), first["next"]) == (2, 2)
    last = get(client, "/api/v1/account/games?per_page=2&page=3", alice_read, accept=JSON).json()
    assert (len(last["games"]), last["next"]) == (1, None)
    assert (
        get(client, "/api/v1/account/games?variant=sultan-8", alice_read, accept=JSON).json()[
            "games"
        ]
        == []
    )
    tomorrow = (timezone.now() + timedelta(days=1)).date().isoformat()
    assert (
        get(client, f"/api/v1/account/games?since={tomorrow}", alice_read, accept=JSON).json()[
            "games"
        ]
        == []
    )
    assert (
        len(
            get(client, f"/api/v1/account/games?until={tomorrow}", alice_read, accept=JSON).json()[
                "games"
            ]
        )
        == 5
    )


@pytest.mark.parametrize(
    "query", ["variant=klondike", "since=yesterday", "per_page=1000", "page=0", "max=-1"]
)
def test_a_bad_filter_is_a_clear_400(client: Client, alice: Player, alice_read: str, query: str):
    response = get(client, f"/api/v1/account/games?{query}", alice_read, accept=JSON)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_unknown_things_are_404(client: Client, alice: Player):
    assert get(client, "/api/v1/players/nobody").json()["code"] == "not_found"
    assert get(client, "/api/v1/games/999999").status_code == 404
    assert get(client, "/api/v1/races/zzzz-zzzz").status_code == 404


def test_a_guest_session_has_no_account_to_read(client: Client):
    assert get(client, "/api/v1/account").status_code == 401
