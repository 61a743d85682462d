"""What a bot is: marked once by its own token, rated among bots, never judged by the
anti-cheat timing rules; and how the house bot chooses its moves."""

from __future__ import annotations

import pytest
from django.test import Client

from games.api.services import token_create
from games.bots.rules import BotRefused, player_mark_bot
from games.bots.think import greedy_pick
from games.engine import legal_moves
from games.engine.positions import replay
from games.engine.rules import apply
from games.engine.solver.greedy import greedy_move
from games.engine.solver.lines import line_from
from games.models import Player
from games.moderation.flags import flag_suspicious
from games.ratings.models import RatingChange
from games.ratings.services import ratings_rebuild
from games.store.services import game_create
from tests.anticheat.stored import stored_game
from tests.api.conftest import bearer
from tests.pages.helpers import winning_log
from tests.ratings.conftest import finish_race

pytestmark = pytest.mark.django_db


def test_an_account_becomes_a_bot_through_its_play_token_for_good(client: Client, bob: Player):
    secret = token_create(player=bob, name="bot", scope="play").secret
    response = client.post("/api/v1/bot/account/upgrade", headers=bearer(secret))
    assert response.status_code == 200
    assert response.json()["player"]["bot"] is True
    bob.refresh_from_db()
    assert bob.is_bot
    # Again: nothing changes, and nothing unmarks it.
    assert client.post("/api/v1/bot/account/upgrade", headers=bearer(secret)).status_code == 200


def test_an_account_that_has_raced_cannot_become_a_bot(client: Client, alice: Player, bob: Player):
    finish_race([alice, bob], moves=[2, 1])
    secret = token_create(player=bob, name="bot", scope="play").secret
    response = client.post("/api/v1/bot/account/upgrade", headers=bearer(secret))
    assert response.status_code == 409
    assert response.json()["code"] == "has_games"
    bob.refresh_from_db()
    assert not bob.is_bot


def test_a_guest_cannot_be_a_bot():
    guest = Player.objects.create(nickname="guest")
    with pytest.raises(BotRefused):
        player_mark_bot(player=guest)


def _bot(name: str) -> Player:
    from django.contrib.auth.models import User

    from games.accounts.services import player_for_user

    return player_mark_bot(player=player_for_user(user=User.objects.create_user(username=name)))


def _rated(race_id: int) -> set[int]:
    """Who the race moved the ratings of, replayed from every rated race."""
    ratings_rebuild()
    return set(RatingChange.objects.filter(race_id=race_id).values_list("player_id", flat=True))


def test_a_public_race_never_rates_a_person_against_a_bot(alice: Player, bob: Player):
    from games.models import Race

    bot = _bot("robo")
    race = finish_race([alice, bob, bot], moves=[3, 2, 5])
    Race.objects.filter(pk=race.pk).update(public=True)
    assert _rated(race.pk) == {alice.pk, bob.pk}


def test_a_person_who_invites_a_bot_into_their_rated_race_races_it_for_rating(
    alice: Player, bob: Player
):
    bot = _bot("robo")
    race = finish_race([alice, bot], moves=[3, 5])  # alice hosts a private rated race
    assert _rated(race.pk) == {alice.pk, bot.pk}


def test_bots_are_rated_among_themselves():
    one, two = _bot("robo1"), _bot("robo2")
    race = finish_race([one, two], moves=[3, 5])
    assert _rated(race.pk) == {one.pk, two.pk}


def test_a_race_a_bot_hosts_rates_no_person_against_it(alice: Player):
    bot = _bot("robo")
    race = finish_race([bot, alice], moves=[5, 3])
    assert _rated(race.pk) == set()  # alice alone among people: nobody to be rated against


def test_the_anticheat_timing_rules_skip_bots(alice: Player):
    person_scripted = stored_game(alice, [0.5] * 80)
    bot = _bot("robo")
    bot_scripted = stored_game(bot, [0.5] * 80)
    report = flag_suspicious()
    assert report.flagged == [person_scripted.pk]
    assert bot_scripted.pk not in report.flagged


def test_greedy_from_the_view_plays_as_the_engines_greedy_player():
    state = replay(6068, "sultan", [])
    while not state.is_over:
        move = greedy_pick(legal_moves(state))
        assert move is not None
        assert move == greedy_move(state)
        state = apply(state, move)


def test_the_full_budget_wins_a_winnable_deal():
    seed, _ = winning_log("sultan")
    line = line_from(variant="sultan", seed=seed, moves=[], max_nodes=2_000_000, max_seconds=20)
    assert replay(seed, "sultan", line).status == "won"


def test_a_practice_game_is_no_race_for_the_upgrade(client: Client, bob: Player):
    game_create(player=bob, variant="sultan", seed=5)
    assert player_mark_bot(player=bob).is_bot


def test_the_docs_bot_plays_as_the_engines_greedy_player():
    from tests.bots.helpers import docs_bot

    pick = docs_bot().pick
    state = replay(2310, "sultan-8", [])
    while not state.is_over:
        move = pick(legal_moves(state))
        assert move == greedy_move(state)
        state = apply(state, move)
