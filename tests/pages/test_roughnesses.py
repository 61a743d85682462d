"""The small things a new player trips on (issue 16): each one fixed, each one pinned."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from games.engine import IllegalMove, apply, legal_moves, new_game
from games.i18n.labels import card_name
from games.i18n.messages import refused_move
from games.models import Game, Move, Player
from games.races.protocol import own_view
from tests.pages.helpers import client_for, move, play, post_json, start_practice

pytestmark = pytest.mark.django_db


def test_opening_a_practice_deal_creates_no_game_until_the_first_move(alice: Player) -> None:
    client = client_for(alice)
    opened = post_json(client, "/api/practice", {"deal": "5150", "create": False})
    assert opened.status_code == 200
    data = opened.json()
    assert (data["type"], data["game"], data["deal"]) == ("deal", None, "5150")
    assert data["view"] == own_view(new_game(5150, "sultan"), 0)
    assert not Game.objects.filter(player=alice).exists()
    # The home page has nothing to offer to continue.
    assert "5150" not in client.get("/").content.decode()
    # The first move creates the game: the page asks to create, then plays.
    game_id = start_practice(client, 5150)["game"]["id"]
    play(client, game_id, ["draw"])
    again = post_json(client, "/api/practice", {"deal": "5150", "create": False}).json()
    assert (again["type"], again["game"]["id"], again["view"]["seq"]) == ("game", game_id, 1)


def test_a_visitor_who_only_opens_a_deal_gets_no_guest_either() -> None:
    client = Client()
    post_json(client, "/api/practice", {"deal": "5150", "create": False})
    assert not Player.objects.exists()
    assert not client.session.keys()


def test_the_moves_counter_goes_down_on_an_undo_not_up(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 77)["game"]["id"]
    play(client, game_id, ["draw", "draw"])
    undone = move(client, game_id, "undo", 2).json()
    assert (undone["seq"], undone["view"]["moves"]) == (3, 1)
    detail = client.get(f"/api/games/{game_id}").json()
    assert detail["view"]["moves"] == 1


def test_a_refused_move_names_the_card_as_a_player_says_it(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 7, "pysolfc")["game"]["id"]
    view = client.get(f"/api/games/{game_id}").json()["view"]
    top = view["waste"][-1]
    wrong = next(f for f in range(1, 10) if f != 5 and f"w{f}" not in view["legal"])
    refused = move(client, game_id, f"w{wrong}", 0).json()
    assert refused["type"] == "reject"
    assert refused["message"] == f"Foundation {wrong} doesn’t take the {card_name(top)}"
    assert top not in refused["message"]


def test_card_names_read_as_spoken() -> None:
    assert card_name("AC") == "ace of clubs"
    assert card_name("TD") == "ten of diamonds"
    assert card_name("QH") == "queen of hearts"
    assert card_name("XX") == "XX"


def test_a_rules_refusal_reads_as_a_sentence_with_the_card_named() -> None:
    state = new_game(7, "pysolfc")
    top = state.waste[-1]
    wrong = next(f for f in range(1, 10) if f != 5 and f"w{f}" not in legal_moves(state))
    with pytest.raises(IllegalMove) as refused:
        apply(state, f"w{wrong}")
    assert refused_move(refused.value) == f"Foundation {wrong} doesn’t take the {card_name(top)}"
    with pytest.raises(IllegalMove) as empty:
        apply(state._replace(reserve=(None,) * len(state.reserve)), "a3")
    assert refused_move(empty.value) == "Slot a is empty"


def test_an_unknown_race_link_shows_the_sites_own_page_even_under_debug(
    settings: Settings,
) -> None:
    settings.DEBUG = True
    response = Client().get("/r/nope-nope/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "No such race" in body
    assert 'class="topbar"' in body  # the site's own layout, not Django's debug page
    assert "technical_404" not in body
    assert "Django tried these URL patterns" not in body
    joined = Client().post("/r/nope-nope/join", {"nickname": "bob"})
    assert joined.status_code == 404
    assert "No such race" in joined.content.decode()


def test_any_other_unknown_page_gets_the_sites_404_when_not_debugging(
    settings: Settings,
) -> None:
    settings.DEBUG = False
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_the_favicon_is_served_where_browsers_look_for_it() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("img/favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()


def test_signing_up_lands_with_a_welcome(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client = Client()
    password = "camel-caravan-93"
    fields = {"username": "scheherazade", "password1": password, "password2": password}
    response = client.post("/accounts/signup/", fields, follow=True)
    assert User.objects.filter(username="scheherazade").exists()
    body = response.content.decode()
    assert "Welcome to Sultan, scheherazade!" in body
    # Said once: the next page is quiet.
    assert "Welcome to Sultan" not in client.get("/").content.decode()


def test_a_practice_move_may_ask_for_automatic_moves(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 2, "pysolfc")["game"]["id"]
    body = {"token": "draw", "id": "auto-1", "seq": 0, "automatic": True}
    ack = post_json(client, f"/api/games/{game_id}/moves", body).json()
    assert ack["automatic"] == ["a7", "d8"]
    assert ack["seq"] == 3
    assert [e.get("automatic", False) for e in ack["events"]] == [False, True, True]
    assert Move.objects.filter(game_id=game_id, automatic=True).count() == 2
    plain = post_json(
        client, f"/api/games/{game_id}/moves", {"token": "draw", "id": "x", "seq": 3}
    ).json()
    assert plain["automatic"] == []
