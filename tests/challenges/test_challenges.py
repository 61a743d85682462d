"""Challenges: a finished game raced by anyone with the link, as a live opponent."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.challenges.models import ChallengeAttempt
from games.challenges.selectors import challenge_ranking
from games.challenges.services import (
    ChallengeRefused,
    challenge_attempt_start,
    challenge_create,
)
from games.models import Game, Player, Race
from games.races.selectors import race_info, race_results, race_snapshot
from games.replays.selectors import game_replay
from games.store.selectors import race_deal_sealed, race_has_ended
from games.store.services import game_create, game_resign
from tests.daily.helpers import attempt, deal_won_game, play, play_some, resign, unseal
from tests.pages.conftest import race_resign
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db
CARD_IN_TEXT = re.compile(r"\b[A2-9TJQK][CDHS]\b")
RACE_VIEW_KEYS = {"foundations", "cards_played", "passes_used", "status"}


@pytest.fixture
def recorded(alice: Player) -> Game:
    """alice's finished daily attempt: she won it, and its day is over (a challenge on
    a day still open is refused: tests/fairness)."""
    taken = attempt(alice)
    game = play(taken.game, deal_won_game(taken.race))
    unseal(taken.race)
    game.refresh_from_db()
    return Game.objects.select_related("race").get(pk=game.pk)


def test_a_challenge_is_made_from_a_finished_game_once(recorded: Game, alice: Player):
    challenge = challenge_create(player=alice, game=recorded)
    assert challenge_create(player=alice, game=recorded).pk == challenge.pk
    assert re.fullmatch(r"[2-9a-z]{4}-[2-9a-z]{4}", challenge.code)


def test_no_challenge_from_a_game_in_play_a_running_race_or_someone_elses_secret(
    alice: Player, bob: Player, live_race: Race
):
    practice = game_create(player=alice, variant="sultan", seed=7)
    with pytest.raises(ChallengeRefused, match="finish"):
        challenge_create(player=alice, game=practice)
    race_resign(live_race, alice)
    mine = Game.objects.get(race=live_race, player=alice)
    with pytest.raises(ChallengeRefused, match="still running"):
        challenge_create(player=alice, game=mine)
    with pytest.raises(ChallengeRefused) as refused:
        challenge_create(player=bob, game=practice)
    assert refused.value.code == "not_found"


def test_two_people_take_it_each_in_a_game_of_their_own_ranked_with_the_original(
    recorded: Game, alice: Player, bob: Player, charlie: Player
):
    challenge = challenge_create(player=alice, game=recorded)
    assert recorded.race is not None
    bobs = challenge_attempt_start(challenge=challenge, player=bob)
    charlies = challenge_attempt_start(challenge=challenge, player=charlie)
    assert not bobs.resumed
    assert challenge_attempt_start(challenge=challenge, player=bob).attempt == bobs.attempt
    for taken in (bobs.attempt, charlies.attempt):
        assert taken.race.ghost_id == recorded.pk
        assert taken.game.seed == recorded.seed
        assert taken.race.secret_until == recorded.race.secret_until  # a daily deal's seal
        assert taken.game.pk != recorded.pk
    resign(play_some(bobs.attempt.game, 5))
    resign(play_some(charlies.attempt.game, 1))
    rows = challenge_ranking(challenge=challenge)
    assert [(r.standing.nickname, r.original) for r in rows] == [
        ("alice", True),
        ("bob", False),
        ("charlie", False),
    ]
    assert ChallengeAttempt.objects.filter(challenge=challenge).count() == 2


def test_the_challengers_race_shows_the_recorded_game_by_race_views_only(
    recorded: Game, alice: Player, bob: Player
):
    challenge = challenge_create(player=alice, game=recorded)
    race = challenge_attempt_start(challenge=challenge, player=bob).attempt.race
    snapshot = race_snapshot(race_id=race.pk, player=bob)
    ghost = snapshot["ghost"]
    assert ghost["nickname"] == "alice"
    assert ghost["player"] not in {r["player"] for r in snapshot["racers"]}
    frames = ghost["frames"]
    assert frames[0]["t"] == 0
    assert frames[-1]["status"] == "won"
    assert frames[-1]["cards_played"] == 95
    assert [f["t"] for f in frames] == sorted(f["t"] for f in frames)
    for frame in frames:
        assert set(frame) == {"t", *RACE_VIEW_KEYS}
    assert not CARD_IN_TEXT.findall(str(ghost))
    assert "seed" not in snapshot["race"]


def test_the_recorded_game_is_ranked_in_the_race_and_beside_it_in_the_replay(
    recorded: Game, alice: Player, bob: Player
):
    challenge = challenge_create(player=alice, game=recorded)
    taken = challenge_attempt_start(challenge=challenge, player=bob).attempt
    resign(play_some(taken.game, 3))
    results = race_results(race=taken.race)
    assert [(s.nickname, s.ghost) for s in results] == [("alice", True), ("bob", False)]
    taken.race.refresh_from_db()
    assert not race_deal_sealed(race=taken.race)  # over, and so is the deal's day
    replay = game_replay(game=Game.objects.select_related("race", "player").get(pk=taken.game.pk))
    racers = {r["nickname"]: r for r in replay["racers"]}
    assert racers["alice"]["ghost"]
    assert racers["alice"]["frames"][-1]["cards_played"] == 95
    assert racers["bob"]["you"]


def test_a_practice_game_challenge_is_secret_until_the_challengers_game_is_over(
    alice: Player, bob: Player
):
    practice = game_create(player=alice, variant="sultan", seed=1234)
    game_resign(game_id=practice.pk, player=alice, client_move_id="r", expected_seq=0)
    practice.refresh_from_db()
    challenge = challenge_create(player=alice, game=practice)
    taken = challenge_attempt_start(challenge=challenge, player=bob).attempt
    assert race_deal_sealed(race=taken.race)
    page = client_for(bob).get(f"/c/{challenge.code}/").content.decode()
    assert "1234" not in page
    assert f"/games/{practice.pk}/replay/" not in page
    resign(taken.game)
    taken.race.refresh_from_db()
    assert not race_deal_sealed(race=taken.race)
    page = client_for(bob).get(f"/c/{challenge.code}/").content.decode()
    assert f"/games/{practice.pk}/replay/" in page


def test_the_challenge_pages_over_http(recorded: Game, alice: Player):
    made = client_for(alice).post(f"/games/{recorded.pk}/challenge")
    assert made.status_code == 302
    code = made["Location"].split("/")[2]
    visitor = Client()
    page = visitor.get(f"/c/{code}/")
    assert page.status_code == 200
    # As a number of its own, not inside another (the seed is small: "18" is in "jsi18n").
    assert not re.search(rf"(?<!\w){recorded.seed}(?!\w)", page.content.decode())
    assert visitor.post(f"/c/{code}/take", {}).status_code == 400  # no nickname
    taken = visitor.post(f"/c/{code}/take", {"nickname": "dave"})
    assert taken.status_code == 302
    assert taken["Location"].startswith("/r/")
    assert visitor.post(f"/c/{code}/take", {})["Location"] == taken["Location"]
    assert Client().get("/c/none-such/").status_code == 404
    assert Client().post(f"/games/{recorded.pk}/challenge").status_code == 404


def test_it_keeps_a_secret_challenge_deal_from_a_challenger_still_playing(
    alice: Player, bob: Player, charlie: Player
):
    """bob's attempt is over, charlie's is not: bob's replay (reachable by id) would
    show charlie the deal he is racing on. It opens once nobody plays that deal."""
    practice = game_create(player=alice, variant="sultan", seed=98765)
    game_resign(game_id=practice.pk, player=alice, client_move_id="r", expected_seq=0)
    practice.refresh_from_db()
    challenge = challenge_create(player=alice, game=practice)
    bobs = challenge_attempt_start(challenge=challenge, player=bob).attempt
    charlies = challenge_attempt_start(challenge=challenge, player=charlie).attempt
    resign(play_some(bobs.game, 3))
    bobs.race.refresh_from_db()
    assert race_has_ended(race=bobs.race)
    urls = [
        f"/api/games/{bobs.game.pk}/replay",
        f"/games/{bobs.game.pk}/replay/",
        f"/games/{bobs.game.pk}/record.txt",
        f"/api/games/{bobs.game.pk}/analysis",
        f"/r/{bobs.race.code}/",
    ]
    for client in (client_for(charlie), Client()):
        for url in urls:
            body = client.get(url).content.decode()
            assert not re.search(r"(?<!\w)98765(?!\w)", body), url
            assert not CARD_IN_TEXT.findall(body), url
    assert "seed" not in race_info(race=bobs.race)
    assert race_deal_sealed(race=bobs.race)
    resign(charlies.game)
    bobs.race.refresh_from_db()
    assert not race_deal_sealed(race=bobs.race)
    assert client_for(charlie).get(f"/api/games/{bobs.game.pk}/replay").status_code == 200


def test_a_profile_names_a_challenge_attempt_rather_than_a_place_in_a_race_of_one(
    recorded: Game, alice: Player, bob: Player
):
    challenge = challenge_create(player=alice, game=recorded)
    taken = challenge_attempt_start(challenge=challenge, player=bob).attempt
    resign(taken.game)
    assert bob.user is not None
    page = client_for(alice).get(f"/@/{bob.user.username}/").content.decode()
    assert f'href="/c/{challenge.code}/"' in page
    assert "a challenge" in page
    assert "1 of 1" not in page  # the recorded game is ranked on the challenge's page
