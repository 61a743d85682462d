"""Sealed means sealed for everyone: one test per row of docs/rules.md, "Sealed deals".

Each walks a way in to a deal still played for a ranking and asserts it is refused,
for a player, a stranger and a moderator alike; then that it opens when the seal does.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.challenges.models import Challenge
from games.daily.models import DailyAttempt
from games.daily.rules import daily_seed, daily_today
from games.models import Player
from games.races.services import race_rematch
from games.store.services import game_create
from tests.daily.helpers import attempt, play_some, resign, unseal
from tests.pages.helpers import client_for, post_json
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db


@pytest.fixture
def resigned(alice: Player) -> DailyAttempt:
    """alice saw today's deal card by card (three moves), then resigned: her day is done,
    everyone else's is not."""
    taken = attempt(alice)
    resign(play_some(taken.game, 3))
    taken.race.refresh_from_db()
    return taken


def _viewers(alice: Player, bob: Player, moderator: User) -> dict[str, Client]:
    staff = Client()
    staff.force_login(moderator)
    return {"alice": client_for(alice), "bob": client_for(bob), "moderator": staff}


def test_it_refuses_a_challenge_on_an_open_daily(resigned: DailyAttempt, alice: Player):
    """Defect 1: POST /games/<her game>/challenge was accepted while the day still ran."""
    response = client_for(alice).post(f"/games/{resigned.game_id}/challenge")
    assert response.status_code == 400
    assert "stays sealed" in response.content.decode()
    assert not Challenge.objects.exists()
    unseal(resigned.race)
    assert client_for(alice).post(f"/games/{resigned.game_id}/challenge").status_code == 302


def test_a_challenge_made_before_the_rule_cannot_be_taken_while_the_day_runs(
    resigned: DailyAttempt, alice: Player, bob: Player
):
    made = Challenge.objects.create(game=resigned.game, created_by=alice)
    response = client_for(bob).post(f"/c/{made.code}/take")
    assert response.status_code == 400
    assert "stays sealed" in response.content.decode()
    assert not made.attempts.exists()


def test_no_replay_record_or_analysis_of_an_open_daily_for_anyone(
    resigned: DailyAttempt, alice: Player, bob: Player, moderator: User
):
    game = resigned.game_id
    urls = [
        f"/games/{game}/replay/",
        f"/api/games/{game}/replay",
        f"/games/{game}/record.txt",
        f"/api/games/{game}/analysis",
    ]
    seed = str(resigned.race.seed)
    for who, client in _viewers(alice, bob, moderator).items():
        for url in urls:
            response = client.get(url)
            assert response.status_code in (403, 404), (who, url)
            assert not shows_number(response.content.decode(), seed), (who, url)
    unseal(resigned.race)
    assert client_for(bob).get(f"/api/games/{game}/replay").status_code == 200


def test_no_practice_game_by_number_on_an_open_daily(
    resigned: DailyAttempt, alice: Player, bob: Player, moderator: User
):
    seed = daily_seed(day=daily_today(), variant="sultan")
    for who, client in _viewers(alice, bob, moderator).items():
        # Any variant: a seed is the same shuffle in all of them.
        for variant in ("sultan", "pysolfc"):
            for create in (True, False):
                body = {"deal": str(seed), "variant": variant, "create": create}
                response = post_json(client, "/api/practice", body)
                assert response.status_code == 403, (who, variant, create)
                assert response.json()["code"] == "sealed"
        assert client.get(f"/practice/{seed}/").status_code == 403
    unseal(resigned.race)
    assert post_json(client_for(bob), "/api/practice", {"deal": str(seed)}).status_code == 201


def test_no_hint_on_a_sealed_deal(resigned: DailyAttempt, bob: Player):
    # A practice game dealt before the seal (a chance in 2**63): still no solver's help.
    game = game_create(player=bob, variant="sultan", seed=resigned.race.seed)
    response = post_json(client_for(bob), f"/api/games/{game.pk}/hint", {})
    assert response.status_code == 403
    assert response.json()["code"] == "deal_raced"


def test_a_practice_games_replay_closes_while_its_deal_is_sealed(
    resigned: DailyAttempt, bob: Player, moderator: User
):
    game = game_create(player=bob, variant="sultan", seed=resigned.race.seed)
    post_json(
        client_for(bob), f"/api/games/{game.pk}/moves", {"token": "resign", "id": "r", "seq": 0}
    )
    staff = Client()
    staff.force_login(moderator)
    for client in (client_for(bob), staff):
        assert client.get(f"/api/games/{game.pk}/replay").status_code in (403, 404)
        assert client.get(f"/games/{game.pk}/record.txt").status_code in (403, 404)
    assert client_for(bob).get(f"/api/games/{game.pk}/replay").json()["code"] == "sealed"
    unseal(resigned.race)
    assert client_for(bob).get(f"/api/games/{game.pk}/replay").status_code == 200


def test_a_race_keeps_its_secret_deal_until_it_ends(bob: Player, charlie: Player):
    from games.races.services import race_create, race_join, race_start
    from tests.pages.conftest import race_play, race_resign

    race = race_create(host=bob, rated=True)
    race_join(race=race, player=charlie)
    race_start(race=race, player=bob, countdown_s=0)
    race_play(race, bob, 2)
    race_resign(race, bob)
    bobs = race.games.get(player=bob)
    for client in (client_for(bob), client_for(charlie), Client()):
        assert client.get(f"/api/games/{bobs.pk}/replay").status_code == 403
        body = post_json(client_for(charlie), "/api/practice", {"deal": str(race.seed)})
        assert body.status_code == 403
    race_resign(race, charlie)
    assert Client().get(f"/api/games/{bobs.pk}/replay").status_code == 200


def test_a_rematch_deals_a_fresh_secret_deal(bob: Player, charlie: Player):
    from games.races.services import race_create, race_join, race_start
    from tests.pages.conftest import race_resign

    race = race_create(host=bob, rated=True)
    race_join(race=race, player=charlie)
    race_start(race=race, player=bob, countdown_s=0)
    race_resign(race, bob)
    race_resign(race, charlie)
    race.refresh_from_db()
    rematch = race_rematch(race=race, player=bob)
    assert rematch.seed != race.seed
    assert rematch.rated
    assert not rematch.open_deal


def test_the_challenge_page_names_no_sealed_deal(resigned: DailyAttempt, alice: Player):
    unseal(resigned.race)
    made = client_for(alice).post(f"/games/{resigned.game_id}/challenge")
    page = Client().get(made["Location"]).content.decode()
    assert not re.search(rf"(?<!\\w){resigned.race.seed}(?!\\w)", page)
