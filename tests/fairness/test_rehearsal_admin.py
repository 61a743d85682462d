"""How a moderator sees a suspected rehearsal (docs/anticheat.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.fairness.models import IdentityLink
from games.models import Player
from games.store.services import game_create
from tests.daily.helpers import attempt, play, resign
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db


def _moderator_client(moderator: User) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


def test_the_admin_lists_an_unranked_attempt_beside_the_game_that_showed_its_deal(
    alice: Player, bob: Player, moderator: User
):
    rehearsal = attempt(bob)
    resign(rehearsal.game)
    IdentityLink.objects.create(earlier=bob, later=alice, kind="login")
    seen_twice = attempt(alice)
    client = _moderator_client(moderator)
    page = client.get(reverse("admin:games_unrankedgame_changelist")).content.decode()
    assert f"game #{seen_twice.game_id}" in page
    assert f"game #{rehearsal.game_id}" in page
    assert "another identity: bob" in page
    links = client.get(reverse("admin:games_identitylink_changelist")).content.decode()
    assert "a guest logged in to an account" in links
    attempts = reverse("admin:games_dailyattempt_changelist")
    unranked = client.get(attempts, {"rehearsal": "unranked"}).content.decode()
    assert "alice" in unranked
    assert "bob (user" not in unranked
    assert not shows_number(page + unranked, rehearsal.race.seed)  # the day is not over
    assert Client().get(reverse("admin:games_unrankedgame_changelist")).status_code == 302


def test_a_scouting_attempt_is_one_filter_away(alice: Player, bob: Player, moderator: User):
    scout = attempt(bob)
    play(scout.game, ["draw"] * 40 + ["resign"])
    honest = attempt(alice)
    resign(honest.game)
    client = _moderator_client(moderator)
    url = reverse("admin:games_dailyattempt_changelist")
    page = client.get(url, {"rehearsal": "scouting"}).content.decode()
    assert "bob (user" in page
    assert "alice (user" not in page


def test_moderators_add_or_change_nothing_here(alice: Player, moderator: User):
    game = game_create(player=alice, variant="sultan", seed=3)
    client = _moderator_client(moderator)
    assert client.get(reverse("admin:games_unrankedgame_add")).status_code == 403
    assert game.pk
