"""Suspicious games in the moderation admin, with their evidence, and flagged by
`manage.py flag_suspicious`: once, never again after a moderator cleared the flag."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game, ModerationAction, ModerationKind
from games.moderation import services as moderation
from tests.anticheat.stored import stored_game

pytestmark = pytest.mark.django_db


def person(n: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.lognormvariate(0, 0.7) * 1.2 for _ in range(n)]


@pytest.fixture
def bot_game(alice) -> Game:
    return stored_game(alice, [0.5] * 80)


@pytest.fixture
def person_game(bob) -> Game:
    return stored_game(bob, person(80, seed=1))


@pytest.fixture
def as_moderator(moderator) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


def _flag(**options: object) -> str:
    out = StringIO()
    call_command("flag_suspicious", stdout=out, **options)
    return out.getvalue()


def test_the_list_marks_and_filters_suspicious_games(as_moderator, bot_game, person_game):
    url = reverse("admin:games_game_changelist")
    page = as_moderator.get(url).content.decode()
    assert "suspicious</strong>" in page
    only = as_moderator.get(url, {"suspicious": "yes"}).content.decode()
    assert f"/admin/games/game/{bot_game.pk}/change/" in only
    assert f"/admin/games/game/{person_game.pk}/change/" not in only
    others = as_moderator.get(url, {"suspicious": "no"}).content.decode()
    assert f"/admin/games/game/{person_game.pk}/change/" in others
    assert f"/admin/games/game/{bot_game.pk}/change/" not in others


def test_the_game_page_shows_the_evidence(as_moderator, bot_game, person_game):
    bot = as_moderator.get(reverse("admin:games_game_change", args=[bot_game.pk]))
    html = bot.content.decode()
    assert "suspicious: " in html
    assert "robust CV of all gaps: 0.000" in html
    assert "steadiest 60 gaps" in html
    human = as_moderator.get(reverse("admin:games_game_change", args=[person_game.pk]))
    assert "nothing unusual" in human.content.decode()


def test_the_command_flags_suspicious_finished_games_with_the_evidence(bot_game, person_game):
    output = _flag()
    assert f"flagged game #{bot_game.pk}" in output
    bot_game.refresh_from_db()
    person_game.refresh_from_db()
    assert bot_game.flagged
    assert not person_game.flagged
    action = ModerationAction.objects.get(game=bot_game)
    assert action.action == ModerationKind.FLAG
    assert action.moderator_name == "anticheat"
    assert action.reason.startswith("anticheat: suspicious: ")
    assert "robust CV of all gaps" in action.reason


def test_running_it_again_flags_nothing(bot_game):
    _flag()
    output = _flag()
    assert "0 flagged, 1 already flagged or cleared" in output
    assert ModerationAction.objects.filter(game=bot_game).count() == 1


def test_a_flag_a_moderator_cleared_is_not_raised_again(bot_game, moderator):
    _flag()
    moderation.game_clear_flag(game=bot_game, moderator=moderator, reason="a fast typist, checked")
    _flag()
    bot_game.refresh_from_db()
    assert not bot_game.flagged
    assert ModerationAction.objects.filter(game=bot_game, action=ModerationKind.FLAG).count() == 1


def test_a_game_still_in_play_is_not_flagged(alice):
    playing = stored_game(alice, [0.5] * 80, finish=False)
    assert playing.status == "playing"
    _flag()
    playing.refresh_from_db()
    assert not playing.flagged


def test_a_dry_run_records_nothing(bot_game):
    assert f"would flag game #{bot_game.pk}" in _flag(dry_run=True)
    assert not ModerationAction.objects.filter(game=bot_game).exists()


def test_the_anticheat_account_cannot_sign_in(bot_game):
    _flag()
    account = User.objects.get(username="anticheat")
    assert not account.is_active
    assert not account.has_usable_password()
