"""The pages around public races and ratings: Race now, the public races list, the
leaderboard and players' profiles."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.accounts.services import player_for_user
from games.models import Game, Player, Race, RaceStatus
from games.ratings.models import Rating
from games.ratings.skill import ESTABLISHED_RACES
from tests.pages.helpers import client_for, play, start_practice
from tests.ratings.conftest import finish_race, ranking

pytestmark = pytest.mark.django_db


def test_race_now_seats_a_guest_by_nickname_and_opens_the_race_page() -> None:
    client = Client()
    response = client.post("/races/now", {"variant": "sultan", "minutes": "5", "nickname": "dave"})
    race = Race.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/r/{race.code}/"
    assert race.public
    assert race.host.nickname == "dave"
    page = client.get(response["Location"]).content.decode()
    assert race.code in page


def test_race_now_without_a_nickname_says_what_to_do() -> None:
    response = Client().post("/races/now", {"variant": "sultan", "minutes": "5"})
    assert response.status_code == 400
    assert "Pick a nickname, or log in." in response.content.decode()
    assert not Race.objects.exists()


def test_race_now_refuses_a_time_limit_it_does_not_offer(alice: Player) -> None:
    response = client_for(alice).post("/races/now", {"variant": "sultan", "minutes": "7"})
    assert response.status_code == 400
    assert not Race.objects.exists()


def test_two_accounts_pressing_race_now_meet_in_one_race(alice: Player, bob: Player) -> None:
    first = client_for(alice).post("/races/now", {"variant": "sultan-8", "minutes": "3"})
    second = client_for(bob).post("/races/now", {"variant": "sultan-8", "minutes": "3"})
    assert first["Location"] == second["Location"]
    assert Race.objects.get().status == RaceStatus.RUNNING


def test_the_home_page_lists_public_races_to_watch(alice: Player) -> None:
    client_for(alice).post("/races/now", {"variant": "sultan", "minutes": "10"})
    race = Race.objects.get()
    home = Client().get("/").content.decode()
    assert "Public races" in home
    assert f'href="/r/{race.code}/"' in home
    assert "Waiting for racers" in home
    fragment = Client().get("/races/public").content.decode()
    assert f'href="/r/{race.code}/"' in fragment
    assert "<html" not in fragment


def test_the_public_races_list_says_when_there_is_none() -> None:
    assert "No public race right now" in Client().get("/races/public").content.decode()


def test_the_race_form_makes_a_rated_race_and_refuses_a_rated_open_deal(alice: Player) -> None:
    client = client_for(alice)
    refused = client.post(
        "/races/new", {"time_limit": "5", "seats": "4", "deal": "7", "rated": "on"}
    )
    assert refused.status_code == 400
    assert "A rated race deals a secret deal" in refused.content.decode()
    made = client.post("/races/new", {"time_limit": "5", "seats": "4", "rated": "on"})
    assert made.status_code == 302
    assert Race.objects.get().rated


@pytest.mark.django_db(transaction=True)
def test_the_leaderboard_lists_established_players_best_first(
    alice: Player, bob: Player, charlie: Player
) -> None:
    # Listed: five rated races against three different placed opponents or more
    # (games.fairness.worth, docs/ratings.md).
    dave, erin = (player_for_user(user=User.objects.create_user(username=n)) for n in "de")
    for _ in range(ESTABLISHED_RACES):
        finish_race([alice, bob, dave, erin], moves=[8, 7, 6, 5])
    finish_race([charlie, alice], moves=[6, 1])  # charlie: one race, not listed
    html = Client().get("/leaderboard/").content.decode()
    assert html.index('href="/@/alice/"') < html.index('href="/@/bob/"')
    assert 'href="/@/charlie/"' not in html
    assert str(Rating.objects.get(player=alice, variant="sultan").rating) in html
    other = Client().get("/leaderboard/?variant=pysolfc").content.decode()
    assert 'href="/@/alice/"' not in other
    assert "Nobody is listed in this variant yet" in other


def test_the_leaderboard_refuses_an_unknown_variant() -> None:
    response = Client().get("/leaderboard/?variant=klondike")
    assert response.status_code == 400
    assert "is not a variant" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_profile_shows_ratings_with_a_chart_and_recent_races(alice: Player, bob: Player) -> None:
    races = [finish_race([alice, bob], moves=[6, 1]) for _ in range(3)]
    html = Client().get("/@/alice/").content.decode()
    assert "<svg" in html
    assert html.count('class="chart-dot"') == 3
    rating = Rating.objects.get(player=alice, variant="sultan")
    assert f"<strong>{rating.rating}</strong>" in html
    assert "provisional" in html
    for race in races:
        assert race.code in html
    winner_place = "1 of 2" if ranking(races[0])[0] == alice.pk else "2 of 2"
    assert winner_place in html
    assert "Daily streaks" in html


def test_a_profile_leaves_practice_games_out(alice: Player) -> None:
    client = client_for(alice)
    game_id = start_practice(client, 4321)["game"]["id"]
    play(client, game_id, ["draw", "resign"])
    html = Client().get("/@/alice/").content.decode()
    assert f"/games/{game_id}/replay/" not in html
    assert "4321" not in html
    assert "No finished races yet." in html
    assert Game.objects.filter(pk=game_id, status="resigned").exists()


def test_a_guest_has_no_profile_and_an_unknown_name_says_so() -> None:
    response = Client().get("/@/nobody/")
    assert response.status_code == 404
    assert "Profiles belong to accounts" in response.content.decode()
