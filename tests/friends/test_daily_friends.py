"""The friends' board on the daily page: what the whole board shows, among friends only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.daily.rules import daily_today
from games.friends.selectors import friends_daily
from games.models import Player
from tests.daily.helpers import attempt, play_some, resign
from tests.friends.conftest import befriend
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_S = 0


def test_friends_results_of_today_are_those_the_board_shows_without_a_ranking(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    resign(play_some(attempt(bob).game, 3))
    resign(play_some(attempt(charlie).game, 3))  # not a friend
    assert [
        s.nickname for s in friends_daily(player=alice, day=daily_today(), variant="sultan")
    ] == ["bob"]
    page = client_for(alice).get("/daily/").content.decode()
    assert "Your friends today" not in page  # alice alone with bob: one row is no board
    resign(play_some(attempt(alice).game, 1))
    page = client_for(alice).get("/daily/").content.decode()
    assert "Your friends today" in page
    board = page.split('id="friends-board"')[1].split("</table>")[0]
    assert "bob" in board
    assert "charlie" not in board
    assert "/replay/" not in board  # the day runs: its games stay sealed


def test_a_day_over_shows_the_friends_ranking_with_replays(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    yesterday = timezone.now() - timedelta(days=2)
    day = daily_today(now=yesterday)
    resign(play_some(attempt(alice, now=yesterday).game, 1))
    resign(play_some(attempt(bob, now=yesterday).game, 1))
    page = client_for(alice).get(f"/daily/{day.isoformat()}/").content.decode()
    assert "Friends’ ranking" in page
    board = page.split('id="friends-board"')[1].split("</table>")[0]
    assert board.count("/replay/") == 2
