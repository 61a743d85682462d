"""The practice board's statistics line: games played and won in this variant, and
the best time, read through one selector (games/practice/selectors.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.utils import translation

from games.models import Game, Player
from games.practice.selectors import variant_summary
from games.store.services import game_create, game_resign
from tests.pages.helpers import client_for, start_practice

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _finished(player: Player, variant: str, *, won_in: timedelta | None) -> Game:
    game = game_create(player=player, variant=variant, seed=7)
    game_resign(game_id=game.pk, player=player, client_move_id=f"r{game.pk}", expected_seq=0)
    if won_in is not None:  # a won game's projection, as the store leaves it after a win
        assert game.started_at is not None
        Game.objects.filter(pk=game.pk).update(status="won", finished_at=game.started_at + won_in)
    return game


def test_the_line_counts_this_variants_games_wins_and_best_time(alice: Player):
    assert variant_summary(player=alice, variant="sultan") == "Your first game of this variant"
    _finished(alice, "sultan", won_in=timedelta(minutes=4, seconds=7))
    _finished(alice, "sultan", won_in=timedelta(minutes=9))
    _finished(alice, "sultan", won_in=None)
    _finished(alice, "sultan", won_in=None)
    _finished(alice, "pysolfc", won_in=timedelta(minutes=1))
    assert variant_summary(player=alice, variant="sultan") == "4 games · 2 won (50%) · best 4:07"
    assert variant_summary(player=alice, variant="pysolfc") == "1 game · 1 won (100%) · best 1:00"


def test_the_practice_page_and_its_json_carry_the_line(alice: Player):
    _finished(alice, "sultan", won_in=timedelta(minutes=3))
    client = client_for(alice)
    page = client.get("/practice/7/").content.decode()
    assert "1 game · 1 won (100%) · best 3:00" in page
    started = start_practice(client, deal=8)
    detail = client.get(f"/api/games/{started['game']['id']}").json()
    assert detail["summary"] == "1 game · 1 won (100%) · best 3:00"
    with translation.override("ru"):
        assert variant_summary(player=alice, variant="sultan") == (
            "1 игра · 1 выиграно (100%) · лучшее время 3:00"
        )
