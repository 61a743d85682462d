"""Home, practice pages, joining by code, guests: every view and its refusals."""

from __future__ import annotations

import pytest
from django.test import Client

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.models import Game, Player, Race
from games.races.services import race_create
from tests.pages.helpers import client_for, play, start_practice

pytestmark = pytest.mark.django_db


def test_home_offers_race_practice_join_and_guest_forms_to_a_visitor() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'action="/races/new"' in html
    assert 'name="nickname"' in html
    for field in ('name="variant"', 'name="time_limit"', 'name="seats"', 'name="deal"'):
        assert field in html
    assert 'action="/practice/"' in html
    assert 'action="/join"' in html
    assert 'action="/guest"' in html
    assert "/accounts/signup/" in html
    assert "/accounts/login/" in html
    assert "csrftoken" in response.cookies


def test_home_asks_no_nickname_of_a_signed_in_player(alice: Player) -> None:
    html = client_for(alice).get("/").content.decode()
    assert 'id="race-nickname"' not in html
    assert "alice" in html
    assert "Log out" in html


def test_home_lists_the_races_the_player_took_part_in(live_race: Race, alice: Player) -> None:
    lobby = race_create(host=alice, variant="pysolfc")
    html = client_for(alice).get("/").content.decode()
    assert f"/r/{live_race.code}/" in html
    assert f"/r/{lobby.code}/" in html
    assert "Running" in html
    assert "In the lobby" in html
    assert html.index(lobby.code) < html.index(live_race.code)  # newest first


def test_home_links_a_finished_races_replay(finished_race: Race, alice: Player) -> None:
    game = Game.objects.get(race=finished_race, player=alice)
    html = client_for(alice).get("/").content.decode()
    assert "Finished" in html
    assert f"/games/{game.pk}/replay/" in html


def test_home_offers_to_continue_an_open_practice_game(alice: Player) -> None:
    client = client_for(alice)
    start_practice(client, 314, "sultan-8")
    html = client.get("/").content.decode()
    assert "Continue where you left off" in html
    assert "/practice/314/?variant=sultan-8" in html


def test_practice_without_a_deal_redirects_to_a_random_one() -> None:
    response = Client().get("/practice/")
    assert response.status_code == 302
    path, query = response["Location"].split("?")
    deal = path.removeprefix("/practice/").removesuffix("/")
    assert 0 < int(deal) < 1_000_000
    assert query == "variant=sultan"


def test_practice_with_a_deal_number_redirects_to_that_deal() -> None:
    response = Client().get("/practice/", {"deal": "77", "variant": "pysolfc-8"})
    assert response["Location"] == "/practice/77/?variant=pysolfc-8"


@pytest.mark.parametrize("query", [{"deal": "-4"}, {"deal": "abc"}, {"variant": "spider"}])
def test_a_bad_practice_request_shows_the_home_page_with_the_error(query: dict[str, str]) -> None:
    response = Client().get("/practice/", query)
    assert response.status_code == 400
    assert b'class="field-error' in response.content


def test_the_practice_page_shows_the_deal_and_creates_nothing() -> None:
    client = Client()
    response = client.get("/practice/4521/?variant=sultan-8")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-deal="4521"' in html
    assert 'data-variant="sultan-8"' in html
    assert "Resign" in html
    assert "New deal" in html
    assert Player.objects.count() == 0
    assert Game.objects.count() == 0
    assert "csrftoken" in response.cookies


@pytest.mark.parametrize("deal", ["abc", "12x", str(2**63), "99999999999999999999999"])
def test_a_deal_that_is_not_a_deal_number_is_not_found(deal: str) -> None:
    response = Client().get(f"/practice/{deal}/")
    assert response.status_code == 404
    assert b"No such deal" in response.content


def test_an_unknown_variant_on_the_practice_page_is_a_clear_400() -> None:
    response = Client().get("/practice/12/?variant=solitaire")
    assert response.status_code == 400
    assert b"Unknown variant" in response.content


@pytest.mark.parametrize("typed", ["{code}", "{upper}", "{bare}", " {code} ", "http://x/r/{code}/"])
def test_join_by_code_accepts_what_people_paste(alice: Player, typed: str) -> None:
    race = race_create(host=alice)
    text = typed.format(code=race.code, upper=race.code.upper(), bare=race.code.replace("-", ""))
    response = Client().get("/join", {"code": text})
    assert response.status_code == 302
    assert response["Location"] == f"/r/{race.code}/"


def test_join_by_an_unknown_code_says_so() -> None:
    response = Client().get("/join", {"code": "zzzz-zzzz"})
    assert response.status_code == 404
    assert b"No race has the code" in response.content
    empty = Client().get("/join", {"code": "  "})
    assert empty.status_code == 400


def test_playing_as_a_guest_starts_a_session_player() -> None:
    client = Client()
    response = client.post("/guest", {"nickname": "  Sinbad  ", "next": "/practice/"})
    assert response.status_code == 302
    assert response["Location"] == "/practice/"
    guest = Player.objects.get(pk=client.session[SESSION_PLAYER_KEY])
    assert guest.nickname == "Sinbad"
    assert guest.is_guest
    client.post("/guest", {"nickname": "Sinbad the Sailor"})
    guest.refresh_from_db()
    assert guest.nickname == "Sinbad the Sailor"
    assert Player.objects.count() == 1


def test_a_guest_nickname_must_have_a_visible_character() -> None:
    response = Client().post("/guest", {"nickname": "   "})
    assert response.status_code == 400
    assert b"A nickname is 1 to 40 characters" in response.content
    assert Player.objects.count() == 0


def test_the_guest_form_never_redirects_off_site() -> None:
    response = Client().post("/guest", {"nickname": "Ali", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_an_account_keeps_its_username_when_it_posts_the_guest_form(alice: Player) -> None:
    client_for(alice).post("/guest", {"nickname": "Someone else"})
    alice.refresh_from_db()
    assert alice.nickname == "alice"


def test_a_refused_race_form_shows_the_home_page_with_the_errors() -> None:
    response = Client().post("/races/new", {"seats": "9", "time_limit": "15", "nickname": "Ali"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="race-seats-error"' in html
    assert Race.objects.count() == 0


def test_a_refused_race_keeps_the_rest_of_the_home_page(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 7)["game"]["id"]
    play(client, game_id, ["draw"])
    race_create(host=alice, variant="sultan", time_limit_s=600, seat_limit=2)
    response = client.post("/races/new", {"seats": "9", "time_limit": "15"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="race-seats-error"' in html
    assert 'id="practice-deal"' in html  # the practice form
    assert "resume-card" in html  # the open practice game
    assert 'class="race-meta"' in html  # the recent race


def test_the_top_bar_names_the_guest(alice: Player) -> None:
    client = Client()
    client.post("/guest", {"nickname": "Zubaida"})
    html = client.get("/history/").content.decode()
    assert "Zubaida" in html
    assert "guest" in html


def test_finished_games_leave_the_continue_offer(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 8)["game"]["id"]
    play(client, game_id, ["resign"])
    assert "Continue where you left off" not in client.get("/").content.decode()
