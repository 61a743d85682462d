"""The practice API: dealing, moves, undo, resign, and every refusal."""

from __future__ import annotations

import pytest
from django.test import Client

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.engine import new_game
from games.models import Game, Move, Player, Race
from games.races.protocol import own_view
from games.store.services import game_create
from tests.pages.helpers import (
    client_for,
    deal_opening_with_foundation_move,
    move,
    play,
    post_json,
    start_practice,
)

pytestmark = pytest.mark.django_db


# Dealing ------------------------------------------------------------------


def test_it_deals_a_new_practice_game_with_the_players_view(alice: Player) -> None:
    response = post_json(client_for(alice), "/api/practice", {"deal": 4242, "variant": "sultan-8"})
    assert response.status_code == 201
    data = response.json()
    game = Game.objects.get(pk=data["game"]["id"])
    assert (game.player_id, game.seed, game.variant, game.race) == (
        alice.pk,
        4242,
        "sultan-8",
        None,
    )
    assert data["resumed"] is False
    assert data["game"]["deal"] == "4242"
    assert data["view"] == own_view(new_game(4242, "sultan-8"), 0)
    assert "stock" not in data["view"]
    assert "seed" not in data["view"]


def test_it_resumes_the_unfinished_game_on_the_same_deal_and_variant(alice: Player) -> None:
    client = client_for(alice)
    first = start_practice(client, 99)
    play(client, first["game"]["id"], ["draw", "draw"])
    again = post_json(client, "/api/practice", {"deal": 99, "variant": "sultan"})
    assert again.status_code == 200
    assert again.json()["resumed"] is True
    assert again.json()["game"]["id"] == first["game"]["id"]
    assert again.json()["view"]["seq"] == 2
    other_variant = start_practice(client, 99, "pysolfc")
    assert other_variant["game"]["id"] != first["game"]["id"]


def test_a_finished_game_is_not_resumed_but_dealt_afresh(alice: Player) -> None:
    client = client_for(alice)
    first = start_practice(client, 5)
    play(client, first["game"]["id"], ["resign"])
    again = post_json(client, "/api/practice", {"deal": 5, "variant": "sultan"})
    assert again.status_code == 201
    assert again.json()["game"]["id"] != first["game"]["id"]
    assert again.json()["view"]["seq"] == 0


def test_no_deal_means_a_random_deal_below_a_million(alice: Player) -> None:
    response = post_json(client_for(alice), "/api/practice", {"variant": "sultan"})
    assert response.status_code == 201
    assert 0 < int(response.json()["game"]["deal"]) < 1_000_000


def test_the_largest_deal_number_survives_as_a_string(alice: Player) -> None:
    largest = str(2**63 - 1)
    data = start_practice(client_for(alice), largest)
    assert data["game"]["deal"] == largest
    assert Game.objects.get(pk=data["game"]["id"]).seed == 2**63 - 1


def test_a_visitor_without_a_player_becomes_a_guest_on_the_first_deal() -> None:
    client = Client()
    response = post_json(client, "/api/practice", {"deal": 3, "variant": "sultan"})
    assert response.status_code == 201
    assert response.json()["player"] == {"nickname": "Guest", "guest": True}
    guest = Player.objects.get(pk=client.session[SESSION_PLAYER_KEY])
    assert guest.is_guest
    assert guest.games.count() == 1


def test_a_new_guest_may_choose_the_nickname() -> None:
    response = post_json(Client(), "/api/practice", {"deal": 3, "nickname": "  Leila   K  "})
    assert response.json()["player"]["nickname"] == "Leila K"


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2]",
        {"deal": -1},
        {"deal": 2**63},
        {"deal": "12a"},
        {"deal": 1.5},
        {"deal": True},
        {"variant": "klondike"},
        {"variant": 3},
        {"deal": 1, "nickname": "   "},
        {"deal": 1, "nickname": 12},
    ],
)
def test_bad_input_is_refused_with_400_and_creates_nothing(body: object) -> None:
    client = Client()
    response = post_json(client, "/api/practice", body)
    assert response.status_code == 400
    assert response.json()["type"] == "error"
    assert response.json()["message"]
    assert Player.objects.count() == 0
    assert Game.objects.count() == 0


def test_a_body_over_4_kib_is_refused(alice: Player) -> None:
    response = post_json(client_for(alice), "/api/practice", {"deal": 1, "pad": "x" * 5000})
    assert response.status_code == 400
    assert response.json()["code"] == "too_big"


def test_the_api_needs_the_csrf_token(alice: Player) -> None:
    client = Client(enforce_csrf_checks=True)
    assert alice.user is not None
    client.force_login(alice.user)
    refused = post_json(client, "/api/practice", {"deal": 1})
    assert refused.status_code == 403
    assert Game.objects.count() == 0
    client.get("/")  # the home page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    accepted = client.post(
        "/api/practice", data='{"deal": 1}', content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert accepted.status_code == 201


def test_get_is_not_allowed_on_the_write_endpoints(alice: Player) -> None:
    client = client_for(alice)
    assert client.get("/api/practice").status_code == 405
    game = start_practice(client)["game"]["id"]
    assert client.get(f"/api/games/{game}/moves").status_code == 405


# Moves --------------------------------------------------------------------


def test_it_acknowledges_a_legal_move_with_its_events_and_the_new_view(alice: Player) -> None:
    seed, token = deal_opening_with_foundation_move()
    client = client_for(alice)
    game_id = start_practice(client, seed)["game"]["id"]
    response = move(client, game_id, token, 0, "first")
    assert response.status_code == 200
    ack = response.json()
    assert {k: ack[k] for k in ("type", "id", "seq", "token", "duplicate")} == {
        "type": "ack",
        "id": "first",
        "seq": 1,
        "token": token,
        "duplicate": False,
    }
    assert ack["events"][0]["type"] == "move"
    assert ack["events"][0]["to"] == f"foundation:{token[1]}"
    assert ack["view"]["cards_played"] == 1
    assert ack["view"]["seq"] == 1
    assert list(Move.objects.filter(game_id=game_id).values_list("token", flat=True)) == [token]


def test_a_retry_with_the_same_id_is_answered_as_a_duplicate(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    first = move(client, game_id, "draw", 0, "same").json()
    retry = move(client, game_id, "draw", 0, "same")
    assert retry.status_code == 200
    assert retry.json()["duplicate"] is True
    assert retry.json()["view"] == first["view"]
    assert Move.objects.filter(game_id=game_id).count() == 1


def test_it_rejects_a_stale_seq_with_409_conflict(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    play(client, game_id, ["draw"])
    response = move(client, game_id, "draw", 0, "stale")
    assert response.status_code == 409
    assert response.json() == {
        "type": "reject",
        "id": "stale",
        "code": "conflict",
        "message": "expected seq 0, the log is at 1",
        "seq": 1,
    }
    assert Move.objects.filter(game_id=game_id).count() == 1


@pytest.mark.parametrize(
    ("token", "code"),
    [("zz", "invalid"), ("W3", "invalid"), ("redeal", "illegal"), ("timeout", "invalid")],
)
def test_it_rejects_unknown_and_illegal_moves_with_422(
    alice: Player, token: str, code: str
) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    response = move(client, game_id, token, 0, "bad")
    assert response.status_code == 422
    assert response.json()["type"] == "reject"
    assert response.json()["code"] == code
    assert response.json()["seq"] == 0
    assert not Move.objects.filter(game_id=game_id).exists()


def test_undo_takes_back_the_last_move(alice: Player) -> None:
    client = client_for(alice)
    start = start_practice(client)
    game_id = start["game"]["id"]
    play(client, game_id, ["draw"])
    response = move(client, game_id, "undo", 1)
    assert response.status_code == 200
    assert response.json()["events"] == [{"type": "undo"}]
    assert response.json()["seq"] == 2
    assert {**response.json()["view"], "seq": 0} == start["view"]


def test_undo_with_nothing_to_take_back_is_illegal(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    response = move(client, game_id, "undo", 0)
    assert response.status_code == 422
    assert response.json()["code"] == "illegal"


def test_resign_ends_the_game(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    response = move(client, game_id, "resign", 0)
    assert response.json()["events"] == [{"type": "status", "status": "resigned"}]
    assert response.json()["view"]["status"] == "resigned"
    assert response.json()["view"]["legal"] == []
    assert Game.objects.get(pk=game_id).status == "resigned"


def test_it_rejects_move_after_finish(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    play(client, game_id, ["resign"])
    for token in ("draw", "undo", "resign"):
        response = move(client, game_id, token, 1)
        assert response.status_code == 422
        assert response.json()["code"] == "finished"
    assert Move.objects.filter(game_id=game_id).count() == 1


def test_a_move_on_someone_elses_game_is_forbidden(alice: Player, bob: Player) -> None:
    game_id = start_practice(client_for(alice))["game"]["id"]
    play(client_for(alice), game_id, ["draw", "draw"])
    response = move(client_for(bob), game_id, "draw", 2, "intruder")
    assert response.status_code == 403
    # Nothing about alice's game shows through, not even how far she is.
    assert response.json() == {
        "type": "reject",
        "id": "intruder",
        "code": "forbidden",
        "message": "this is not your game",
        "seq": 0,
    }
    assert Move.objects.filter(game_id=game_id).count() == 2


def test_a_missing_game_looks_like_someone_elses(alice: Player) -> None:
    response = move(client_for(alice), 987654, "draw", 0, "x")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def test_a_visitor_without_a_player_cannot_move(alice: Player) -> None:
    game_id = start_practice(client_for(alice))["game"]["id"]
    assert move(Client(), game_id, "draw", 0).status_code == 403


def test_a_race_game_cannot_be_played_through_the_practice_api(
    alice: Player, running_race: Race
) -> None:
    game = game_create(player=alice, variant="sultan", race=running_race)
    response = move(client_for(alice), game.pk, "draw", 0, "sneaky")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert "race socket" in response.json()["message"]
    assert not Move.objects.filter(game=game).exists()
    assert client_for(alice).get(f"/api/games/{game.pk}").status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        "{broken",
        '"draw"',
        {"id": "a", "seq": 0},
        {"token": "", "id": "a", "seq": 0},
        {"token": "draw-draw", "id": "a", "seq": 0},
        {"token": "draw", "seq": 0},
        {"token": "draw", "id": "x" * 65, "seq": 0},
        {"token": "draw", "id": "a"},
        {"token": "draw", "id": "a", "seq": -1},
        {"token": "draw", "id": "a", "seq": "zero"},
        {"token": "draw", "id": "a", "seq": False},
        {"token": 7, "id": "a", "seq": 0},
    ],
)
def test_malformed_moves_are_400_and_change_nothing(alice: Player, body: object) -> None:
    client = client_for(alice)
    game_id = start_practice(client)["game"]["id"]
    response = post_json(client, f"/api/games/{game_id}/moves", body)
    assert response.status_code == 400
    assert response.json()["type"] == "error"
    assert response.json()["code"] in ("bad_json", "bad_message")
    assert not Move.objects.filter(game_id=game_id).exists()


def test_the_game_endpoint_gives_its_player_the_view_to_resync(alice: Player, bob: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 31)["game"]["id"]
    play(client, game_id, ["draw"])
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    assert response.json()["view"]["seq"] == 1
    assert response.json()["game"]["moves"] == 1
    assert client_for(bob).get(f"/api/games/{game_id}").status_code == 403
