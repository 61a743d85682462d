"""A daily deal is secret until the day is over for everyone, in every channel a
race's secret deal is: the race's own info, replays, records, hints, analyses,
the admin. Then its replays, its number and the solver's verdict open."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.daily.rules import daily_today
from games.models import Game, Player
from games.races.selectors import deal_raced_now, race_info
from games.store.selectors import race_deal_public, race_deal_sealed
from games.store.services import game_create
from tests.daily.helpers import (
    attempt,
    challenge_made_before_the_seal_rule,
    play_some,
    resign,
    unseal,
)
from tests.pages.helpers import client_for, post_json
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice: Player):
    """alice's attempt at today's deal, over (resigned after a few moves)."""
    taken = attempt(alice)
    resign(play_some(taken.game, 4))
    taken.race.refresh_from_db()
    assert taken.race.status == "finished"
    return taken


def _clients(alice: Player, bob: Player, moderator: User) -> list[Client]:
    as_moderator = Client()
    as_moderator.force_login(moderator)
    return [client_for(alice), client_for(bob), Client(), as_moderator]


def test_a_finished_attempt_keeps_its_deal_sealed_until_the_day_is_over(finished):
    race = finished.race
    assert race_deal_sealed(race=race)
    assert not race_deal_public(race=race)
    assert "seed" not in race_info(race=race)
    assert deal_raced_now(seed=race.seed, variant=race.variant)
    assert not race_deal_sealed(race=race, now=race.secret_until + timedelta(seconds=1))
    unseal(race)
    assert race_info(race=race)["seed"] == str(race.seed)
    assert not deal_raced_now(seed=race.seed, variant=race.variant)


def test_no_replay_record_or_analysis_of_an_attempt_before_the_day_is_over(
    finished, alice: Player, bob: Player, moderator: User
):
    game, seed = finished.game, str(finished.race.seed)
    for client in _clients(alice, bob, moderator):
        for url in (
            f"/api/games/{game.pk}/replay",
            f"/games/{game.pk}/replay/",
            f"/games/{game.pk}/record.txt",
            f"/api/games/{game.pk}/analysis",
            reverse("admin:games_game_record", args=[game.pk]),
        ):
            answer = client.get(url)
            assert answer.status_code in (302, 403), (url, answer.status_code)
            assert not shows_number(answer.content.decode(), seed), url
    unseal(finished.race)
    for client in _clients(alice, bob, moderator)[:3]:
        assert client.get(f"/api/games/{game.pk}/replay").json()["game"]["deal"] == seed


def test_the_admin_tells_when_the_deal_opens_and_not_the_deal(finished, moderator: User):
    client = Client()
    client.force_login(moderator)
    seed = str(finished.race.seed)
    for url in (
        reverse("admin:games_game_change", args=[finished.game.pk]),
        reverse("admin:games_race_change", args=[finished.race.pk]),
        reverse("admin:games_race_changelist"),
    ):
        page = client.get(url).content.decode()
        assert not shows_number(page, seed), url
    change = client.get(reverse("admin:games_game_change", args=[finished.game.pk]))
    assert "secret until the race ends and" in change.content.decode()


def test_no_practice_game_on_the_days_deal_while_it_is_sealed(finished, bob: Player):
    client = client_for(bob)
    for create in (True, False):  # not even a look at its start
        response = post_json(
            client,
            "/api/practice",
            {"deal": str(finished.race.seed), "variant": "sultan", "create": create},
        )
        assert response.status_code == 403
        assert response.json()["code"] == "sealed"
    page = client.get(f"/practice/{finished.race.seed}/")
    assert page.status_code == 403
    assert "This deal is sealed" in page.content.decode()


def test_no_hint_or_analysis_for_the_days_deal_played_in_practice(finished, bob: Player):
    # A practice game dealt before the deal was sealed (one chance in 2**63).
    client = client_for(bob)
    game = game_create(player=bob, variant="sultan", seed=finished.race.seed)
    practice = {"game": {"id": game.pk}}
    hint = post_json(client, f"/api/games/{practice['game']['id']}/hint", {})
    assert hint.status_code == 403
    assert hint.json()["code"] == "deal_raced"
    post_json(
        client,
        f"/api/games/{practice['game']['id']}/moves",
        {"token": "resign", "id": "r", "seq": 0},
    )
    # The replay gate closes before the solver is asked: the deal is sealed for everyone.
    analysis = client.get(f"/api/games/{practice['game']['id']}/analysis")
    assert analysis.status_code == 403
    assert analysis.json()["code"] == "sealed"


def test_the_days_page_never_shows_the_deal_until_the_day_is_over(finished, bob: Player):
    seed = str(finished.race.seed)
    page = client_for(bob).get("/daily/")
    assert page.status_code == 200
    body = page.content.decode()
    assert not shows_number(body, seed)
    assert f"/games/{finished.game.pk}/replay/" not in body
    assert "alice" in body  # on the leaderboard


def test_a_past_day_shows_its_deal_replays_and_verdict(alice: Player, bob: Player):
    from datetime import UTC, datetime

    yesterday = daily_today() - timedelta(days=2)  # over whatever the hour
    taken = attempt(alice, now=datetime.combine(yesterday, datetime.min.time(), tzinfo=UTC))
    resign(play_some(taken.game, 2))
    body = client_for(bob).get(f"/daily/{yesterday.isoformat()}/").content.decode()
    # The day's deal is yesterday's rule; the attempt's race kept it sealed until the day was over.
    assert f"/games/{taken.game.pk}/replay/" in body
    assert "data-verdict=" in body


def test_the_admins_daily_and_challenge_pages_never_show_a_sealed_deal(
    finished, alice: Player, bob: Player, moderator: User
):
    recorded = Game.objects.select_related("race").get(pk=finished.game_id)
    challenge, taken = challenge_made_before_the_seal_rule(
        recorded=recorded, maker=alice, player=bob
    )
    client = Client()
    client.force_login(moderator)
    seed = str(finished.race.seed)
    urls = [
        reverse("admin:games_dailyattempt_changelist"),
        reverse("admin:games_dailyattempt_change", args=[finished.pk]),
        reverse("admin:games_challenge_changelist"),
        reverse("admin:games_challenge_change", args=[challenge.pk]),
        reverse("admin:games_challengeattempt_changelist"),
        reverse("admin:games_challengeattempt_change", args=[taken.pk]),
    ]
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200, url
        assert not shows_number(page.content.decode(), seed), url
    assert "secret while it may still be played unseen" in client.get(urls[1]).content.decode()
    # Nobody edits history, and a visitor without the permission sees nothing.
    change = client.get(urls[1]).content.decode()
    assert 'name="_save"' not in change
    assert Client().get(urls[0]).status_code == 302
    unseal(finished.race)
    assert shows_number(client.get(urls[1]).content.decode(), seed)


def test_the_admin_keeps_a_practice_games_deal_while_a_challenge_on_it_is_raced(
    alice: Player, bob: Player, moderator: User
):
    from games.challenges.services import challenge_attempt_start, challenge_create
    from games.store.services import game_create, game_resign

    practice = game_create(player=alice, variant="sultan", seed=4242421)
    game_resign(game_id=practice.pk, player=alice, client_move_id="r", expected_seq=0)
    practice.refresh_from_db()
    challenge = challenge_create(player=alice, game=practice)
    taken = challenge_attempt_start(challenge=challenge, player=bob).attempt
    client = Client()
    client.force_login(moderator)
    for url in (
        reverse("admin:games_game_change", args=[practice.pk]),
        reverse("admin:games_challenge_change", args=[challenge.pk]),
        reverse("admin:games_challengeattempt_change", args=[taken.pk]),
    ):
        assert "4242421" not in client.get(url).content.decode(), url
    resign(taken.game)
    page = client.get(reverse("admin:games_challenge_change", args=[challenge.pk]))
    assert "4242421" in page.content.decode()
