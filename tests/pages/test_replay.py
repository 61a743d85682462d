"""Replays: who may watch what, when, and that every step is the log replayed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.engine import replay
from games.models import Game, Player, Race
from games.races.protocol import own_view
from games.store.services import game_create
from tests.pages.helpers import client_for, play, start_practice

pytestmark = pytest.mark.django_db

SECRET = 918273645  # a deal number distinctive enough to search a response for


def _finished_practice(client: Client, tokens: list[str], deal: int = SECRET) -> int:
    game_id: int = start_practice(client, deal)["game"]["id"]
    play(client, game_id, [*tokens, "resign"])
    return game_id


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_a_finished_practice_game_replays_step_by_step_to_its_player(alice: Player) -> None:
    client = client_for(alice)
    tokens = ["draw", "draw", "undo", "draw", "draw"]
    game_id = _finished_practice(client, tokens)
    response = client.get(f"/api/games/{game_id}/replay")
    assert response.status_code == 200
    data = response.json()
    assert data["game"]["deal"] == str(SECRET)
    assert data["game"]["status"] == "resigned"
    steps = data["steps"]
    assert [s["seq"] for s in steps] == list(range(7))
    assert [s["token"] for s in steps] == [None, *tokens, "resign"]
    # Each step is the log replayed by the engine, undo included.
    for i in range(len(tokens) + 1):
        expected = own_view(replay(SECRET, "sultan", tokens[:i]), i)
        assert steps[i]["view"] == expected
    assert steps[3]["events"] == [{"type": "undo"}]
    assert steps[-1]["view"]["status"] == "resigned"
    times = [s["t"] for s in steps]
    assert times == sorted(times)
    assert times[0] == 0
    assert "stock" not in _keys(data)
    assert data["racers"] == []
    assert data["results"] is None


def test_the_replay_page_renders_for_an_open_game(alice: Player) -> None:
    client = client_for(alice)
    game_id = _finished_practice(client, ["draw"])
    response = client.get(f"/games/{game_id}/replay/")
    assert response.status_code == 200
    assert f'data-game="{game_id}"' in response.content.decode()
    assert b"Your game" in response.content


def test_an_unfinished_practice_game_is_refused_without_leaking_its_deal(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, SECRET)["game"]["id"]
    play(client, game_id, ["draw"])
    api = client.get(f"/api/games/{game_id}/replay")
    assert api.status_code == 403
    assert api.json()["code"] == "in_play"
    page = client.get(f"/games/{game_id}/replay/")
    assert page.status_code == 403
    assert b"still on" in page.content
    # The deal is the player's own choice (it is in the continue link), but
    # nothing of the stock appears, in either answer.
    assert "stock" not in _keys(api.json())
    assert b'"stock"' not in page.content


def test_someone_elses_practice_game_is_not_found(alice: Player, bob: Player) -> None:
    game_id = _finished_practice(client_for(alice), ["draw"])
    for client in (client_for(bob), Client()):
        api = client.get(f"/api/games/{game_id}/replay")
        assert api.status_code == 404
        assert str(SECRET) not in api.content.decode()
        page = client.get(f"/games/{game_id}/replay/")
        assert page.status_code == 404
        assert str(SECRET) not in page.content.decode()
        assert client.get(f"/games/{game_id}/record.txt").status_code == 404


def test_a_missing_game_has_no_replay(alice: Player) -> None:
    assert client_for(alice).get("/api/games/424242/replay").status_code == 404
    assert client_for(alice).get("/games/424242/replay/").status_code == 404


def test_a_running_races_game_replay_is_refused_to_everyone(
    live_race: Race, alice: Player, bob: Player
) -> None:
    game = Game.objects.get(race=live_race, player=alice)
    seed = str(live_race.seed)
    for client in (client_for(alice), client_for(bob), Client()):
        api = client.get(f"/api/games/{game.pk}/replay")
        assert api.status_code == 403
        assert api.json()["code"] == "race_running"
        assert seed not in api.content.decode()
        assert "stock" not in _keys(api.json())
        assert "seed" not in _keys(api.json())
        # One code for one reason, whichever endpoint is asked.
        analysis = client.get(f"/api/games/{game.pk}/analysis")
        assert (analysis.status_code, analysis.json()["code"]) == (403, "race_running")
        page = client.get(f"/games/{game.pk}/replay/")
        assert page.status_code == 403
        assert seed not in page.content.decode()
        assert f"/r/{live_race.code}/".encode() in page.content
        record = client.get(f"/games/{game.pk}/record.txt")
        assert record.status_code == 403
        assert seed not in record.content.decode()


def test_a_moderator_may_not_open_a_running_races_game_either(
    live_race: Race, alice: Player, moderator: User
) -> None:
    game = Game.objects.get(race=live_race, player=alice)
    client = Client()
    client.force_login(moderator)
    assert client.get(f"/api/games/{game.pk}/replay").status_code == 403


def test_a_finished_races_games_replay_to_anyone_with_every_racer(
    finished_race: Race, alice: Player, bob: Player
) -> None:
    game = Game.objects.get(race=finished_race, player=alice)
    response = Client().get(f"/api/games/{game.pk}/replay")
    assert response.status_code == 200
    data = response.json()
    assert data["game"]["race"]["code"] == finished_race.code
    assert data["game"]["deal"] == str(finished_race.seed)
    assert len(data["steps"]) == game.last_seq + 1
    racers = {r["nickname"]: r for r in data["racers"]}
    assert set(racers) == {"alice", "bob"}
    assert racers["alice"]["you"] is True
    assert racers["bob"]["you"] is False
    # Race views only, on the race's clock: heights, never a card.
    bob_frames = racers["bob"]["frames"]
    assert bob_frames[0] == {
        "t": 0,
        "foundations": [1] * 9,
        "cards_played": 0,
        "passes_used": 1,
        "status": "playing",
    }
    assert bob_frames[-1]["status"] == "resigned"
    assert [f["t"] for f in bob_frames] == sorted(f["t"] for f in bob_frames)
    assert {r["nickname"] for r in data["results"]} == {"alice", "bob"}
    page = Client().get(f"/games/{game.pk}/replay/")
    assert page.status_code == 200
    assert b"The other racers" in page.content


def test_a_race_whose_time_has_passed_opens_its_replays(alice: Player) -> None:
    long_ago = timezone.now() - timedelta(hours=2)
    race = Race.objects.create(
        host=alice, variant="sultan", seed=5, status="running", starts_at=long_ago, time_limit_s=60
    )
    game = game_create(player=alice, variant="sultan", race=race)
    assert Client().get(f"/api/games/{game.pk}/replay").status_code == 200


def test_a_moderator_may_watch_another_players_finished_practice_game(
    alice: Player, moderator: User
) -> None:
    client = Client()
    client.force_login(moderator)
    finished = _finished_practice(client_for(alice), ["draw"])
    assert client.get(f"/api/games/{finished}/replay").status_code == 200
    assert client.get(f"/games/{finished}/record.txt").status_code == 200
    open_game = start_practice(client_for(alice), 12)["game"]["id"]
    assert client.get(f"/api/games/{open_game}/replay").status_code == 404


def test_the_record_downloads_once_visible(alice: Player) -> None:
    client = client_for(alice)
    game_id = _finished_practice(client, ["draw", "draw"])
    response = client.get(f"/games/{game_id}/record.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    assert f'[Deal "{SECRET}"]' in text
    assert "draw" in text
    assert "resign" in text


def test_replay_json_is_plain_json_types(alice: Player) -> None:
    client = client_for(alice)
    game_id = _finished_practice(client, ["draw"])
    body = client.get(f"/api/games/{game_id}/replay").content
    assert json.loads(body)["record_url"] == f"/games/{game_id}/record.txt"
