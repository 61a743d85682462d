"""The history page: the player's games with results, and statistics per variant."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game, Player, Race
from games.moderation.services import game_reinstate, game_void
from games.practice.selectors import player_variant_stats
from tests.pages.helpers import client_for, play, start_practice, winning_log

pytestmark = pytest.mark.django_db


def _won_game(client: Client) -> int:
    seed, tokens = winning_log("sultan")
    game_id: int = start_practice(client, seed)["game"]["id"]
    play(client, game_id, list(tokens))
    assert Game.objects.get(pk=game_id).status == "won"
    return game_id


def test_a_visitor_without_games_is_invited_to_play() -> None:
    response = Client().get("/history/")
    assert response.status_code == 200
    assert b"No games yet" in response.content


def test_history_lists_every_game_with_its_result_and_links(alice: Player, live_race: Race) -> None:
    client = client_for(alice)
    finished = start_practice(client, 1234)["game"]["id"]
    play(client, finished, ["draw", "draw", "resign"])
    open_game = start_practice(client, 5678, "pysolfc")["game"]["id"]
    race_game = Game.objects.get(race=live_race, player=alice)
    html = client.get("/history/").content.decode()
    assert f"/games/{finished}/replay/" in html
    assert "Resigned" in html
    assert "/practice/5678/?variant=pysolfc" in html
    assert "Continue" in html
    assert f"/games/{open_game}/replay/" not in html
    # The running race's deal stays secret; its replay is not offered yet.
    assert str(live_race.seed) not in html
    assert "secret until the race ends" in html
    assert f"/games/{race_game.pk}/replay/" not in html
    assert f"/r/{live_race.code}/" in html
    assert html.index("5678") < html.index("1234")  # newest first


def test_a_finished_races_game_shows_its_deal_and_replay(
    finished_race: Race, alice: Player
) -> None:
    game = Game.objects.get(race=finished_race, player=alice)
    html = client_for(alice).get("/history/").content.decode()
    assert str(finished_race.seed) in html
    assert f"/games/{game.pk}/replay/" in html


def test_history_shows_only_the_players_own_games(alice: Player, bob: Player) -> None:
    start_practice(client_for(bob), 2468)
    assert "2468" not in client_for(alice).get("/history/").content.decode()


def test_statistics_count_finished_games_per_variant(alice: Player) -> None:
    client = client_for(alice)
    won = _won_game(client)
    lost_early = start_practice(client, 11)["game"]["id"]
    play(client, lost_early, ["draw", "resign"])
    start_practice(client, 12)  # unfinished: not counted
    other = start_practice(client, 13, "sultan-8")["game"]["id"]
    play(client, other, ["resign"])

    stats = {s.variant: s for s in player_variant_stats(player=alice)}
    assert set(stats) == {"sultan", "sultan-8"}
    sultan = stats["sultan"]
    assert (sultan.played, sultan.won, sultan.win_rate) == (2, 1, 50)
    won_game = Game.objects.get(pk=won)
    assert won_game.started_at is not None
    assert won_game.finished_at is not None
    assert sultan.best_time == won_game.finished_at - won_game.started_at
    assert sultan.average_cards == pytest.approx((95 + 0) / 2)
    assert (stats["sultan-8"].played, stats["sultan-8"].won, stats["sultan-8"].best_time) == (
        1,
        0,
        None,
    )

    html = client.get("/history/").content.decode()
    assert "Sultan, 8 slots" in html
    assert "50%" in html
    assert "47.5" in html


def test_best_time_is_the_fastest_win(alice: Player) -> None:
    client = client_for(alice)
    first = _won_game(client)
    second = _won_game(client)
    durations = []
    for game_id in (first, second):
        game = Game.objects.get(pk=game_id)
        assert game.finished_at is not None
        assert game.started_at is not None
        durations.append(game.finished_at - game.started_at)
    (sultan,) = player_variant_stats(player=alice)
    assert sultan.won == 2
    assert sultan.best_time == min(durations)
    assert sultan.best_time is not None
    assert sultan.best_time < timedelta(minutes=1)


def test_voided_games_count_for_nothing(alice: Player, moderator: User) -> None:
    client = client_for(alice)
    won = _won_game(client)
    game_void(game=Game.objects.get(pk=won), moderator=moderator, reason="tested")
    assert player_variant_stats(player=alice) == []
    assert "voided" in client.get("/history/").content.decode()


def test_a_reinstated_game_counts_again(alice: Player, moderator: User) -> None:
    client = client_for(alice)
    game = Game.objects.get(pk=_won_game(client))
    game_void(game=game, moderator=moderator, reason="suspected")
    game_reinstate(game=game, moderator=moderator, reason="cleared")
    (sultan,) = player_variant_stats(player=alice)
    assert sultan.won == 1
    assert "voided" not in client.get("/history/").content.decode()


def test_history_pages_by_twenty_five(alice: Player) -> None:
    client = client_for(alice)
    for deal in range(30):
        start_practice(client, 1000 + deal)
    first = client.get("/history/").content.decode()
    assert first.count("Continue<span") == 25
    assert "Older" in first
    second = client.get("/history/?page=2").content.decode()
    assert second.count("Continue<span") == 5
    assert "Newer" in second
    assert client.get("/history/?page=banana").status_code == 200
