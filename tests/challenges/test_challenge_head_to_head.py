"""Head-to-head on a challenge's page: the challenges between two players (an attempt at
the other's recorded game beats it or not) beside the races both ran."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.challenges.models import Challenge
from games.challenges.selectors import challenge_records, challenge_versus
from games.challenges.services import challenge_attempt_start, challenge_create
from games.friends.headtohead import Record
from games.models import Game, Player
from games.store.services import game_create, game_resign
from tests.daily.helpers import attempt, deal_won_game, play, play_some, resign, unseal
from tests.pages.helpers import client_for
from tests.ratings.conftest import finish_race

pytestmark = pytest.mark.django_db


def _won_challenge(player: Player) -> Challenge:
    """`player`'s daily attempt, won, its day over, offered as a challenge."""
    taken = attempt(player)
    play(taken.game, deal_won_game(taken.race))
    unseal(taken.race)
    game = Game.objects.select_related("race").get(pk=taken.game_id)
    return challenge_create(player=player, game=game)


def _resigned_challenge(player: Player, seed: int) -> Challenge:
    """`player`'s practice game, resigned before a card: any card played beats it."""
    game = game_create(player=player, variant="sultan", seed=seed)
    game_resign(game_id=game.pk, player=player, client_move_id="r", expected_seq=0)
    game.refresh_from_db()
    return challenge_create(player=player, game=game)


def _attempt(challenge: Challenge, player: Player, moves: int) -> None:
    taken = challenge_attempt_start(challenge=challenge, player=player).attempt
    resign(play_some(taken.game, moves))


def _attempt_won(challenge: Challenge, player: Player) -> None:
    taken = challenge_attempt_start(challenge=challenge, player=player).attempt
    play(taken.game, deal_won_game(taken.race))


def test_it_counts_each_finished_attempt_for_whoever_finished_ahead(
    alice: Player, bob: Player, charlie: Player
) -> None:
    alices = _won_challenge(alice)
    bobs = _resigned_challenge(bob, seed=1234)
    _attempt(alices, bob, 5)  # alice's won game is ahead
    _attempt_won(bobs, alice)  # a win beats a resignation: alice ahead again
    _attempt(bobs, charlie, 0)  # no card against none: a tie, for neither
    challenge_attempt_start(challenge=alices, player=charlie)  # still racing: not counted
    assert challenge_records(me=alice, others=[bob.pk, charlie.pk]) == {bob.pk: Record(2, 2, 0)}
    assert challenge_records(me=bob, others=[alice.pk, charlie.pk]) == {
        alice.pk: Record(2, 0, 2),
        charlie.pk: Record(1, 0, 0),
    }


def test_the_viewer_sees_their_record_against_the_recorded_games_player(
    alice: Player, bob: Player
) -> None:
    alices = _won_challenge(alice)
    _attempt(alices, bob, 5)
    finish_race([bob, alice], rated=False, moves=[1, 0])
    page = client_for(bob).get(f"/c/{alices.code}/").content.decode()
    assert "You against alice" in page
    assert "Challenges: you 0 – 1 alice · 1 attempt" in page
    assert "Races: you 1 – 0 alice · 1 race" in page
    assert "/@/alice/#head-to-head" in page
    assert 'id="challenge-h2h"' not in Client().get(f"/c/{alices.code}/").content.decode()


def test_the_author_sees_who_took_it_with_each_ones_record(
    alice: Player, bob: Player, charlie: Player
) -> None:
    alices = _won_challenge(alice)
    _attempt(alices, bob, 5)
    _attempt(alices, charlie, 2)
    guest = Player.objects.create(nickname="visitor")
    challenge_attempt_start(challenge=alices, player=guest)
    page = client_for(alice).get(f"/c/{alices.code}/").content.decode()
    assert "Who took it: your records" in page
    table = page.split('id="challenge-attempters"')[1].split("</table>")[0]
    assert table.count("you 1 – 0 · 1 attempt") == 2
    assert table.count("you 0 – 0 · 0 races") == 2
    assert "/@/bob/#head-to-head" in table
    assert "/@/charlie/#head-to-head" in table
    assert "visitor" not in table  # a guest has no profile, nor a record shown


def test_the_page_reads_in_russian(alice: Player, bob: Player) -> None:
    alices = _won_challenge(alice)
    _attempt(alices, bob, 5)
    client = client_for(bob)
    client.cookies["django_language"] = "ru"
    page = client.get(f"/c/{alices.code}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Вы против alice" in page
    assert "Вызовы: вы 0 – 1 alice · 1 попытка" in page


def test_its_queries_do_not_grow_with_the_number_of_attempters(
    alice: Player, bob: Player, charlie: Player
) -> None:
    alices = _won_challenge(alice)
    _attempt(alices, bob, 5)
    with CaptureQueriesContext(connection) as one:
        challenge_versus(me=alice, players=Player.objects.filter(pk=bob.pk))
    _attempt(alices, charlie, 1)
    finish_race([alice, bob, charlie], rated=False, moves=[1, 0, 0])
    with CaptureQueriesContext(connection) as two:
        versus = challenge_versus(me=alice, players=Player.objects.exclude(pk=alice.pk))
    assert len(two.captured_queries) == len(one.captured_queries) == 3
    assert [(v.nickname, v.challenges, v.races) for v in versus] == [
        ("bob", Record(1, 1, 0), Record(1, 1, 0)),
        ("charlie", Record(1, 1, 0), Record(1, 1, 0)),
    ]
