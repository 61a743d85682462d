"""/friends/: what each friend is doing (racing now, their last daily) and who follows you."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.daily.rules import daily_today
from games.friends.models import Block, Follow
from games.friends.presence import presence_join
from games.friends.services import invitation_send
from games.models import Player, Race
from games.races.services import race_create, race_join, race_start
from tests.conftest import _account_player
from tests.daily.helpers import attempt, play_some, resign
from tests.friends.conftest import befriend
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_S = 0


def _row(page: str, username: str, section: str = "following-title") -> str:
    """The list item of `username` in the section whose heading is `section`."""
    part = page.split(f'id="{section}"')[1].split("</section>")[0]
    return part.split(f'data-username="{username}"')[1].split("</li>")[0]


def _page(player: Player) -> str:
    response = client_for(player).get("/friends/")
    assert response.status_code == 200
    return response.content.decode()


def _running(host: Player, *others: Player, public: bool = False) -> Race:
    race = race_create(host=host, public=public, rated=public)
    for other in others:
        race_join(race=race, player=other)
    if not public:  # a public race starts by itself with its second racer
        race_start(race=race, player=host)
    race.refresh_from_db()
    return race


def test_a_friend_in_a_public_race_is_shown_racing_with_a_link_to_watch(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    race = _running(bob, charlie, public=True)
    row = _row(_page(alice), "bob")
    assert "racing now" in row
    assert f'href="/r/{race.code}/"' in row


def test_a_private_race_is_not_linked_for_a_friend_who_may_not_see_it(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(bob, charlie)
    race = race_create(host=bob)
    race_join(race=race, player=charlie)
    page = _page(alice)
    assert "in a race’s lobby" in _row(page, "bob")
    assert race.code not in page  # busy, but where is not hers to know
    invitation_send(inviter=bob, invitees=[alice], address="198.51.100.7", race=race)
    assert f'href="/r/{race.code}/"' in _row(_page(alice), "bob")  # invited: she may look


def test_a_private_race_is_linked_for_a_friend_seated_in_it(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    race = _running(bob, alice)
    assert f'href="/r/{race.code}/"' in _row(_page(alice), "bob")
    assert race.code not in _page(charlie)  # charlie follows nobody: nothing of it


def test_what_a_friend_does_is_not_shown_for_one_who_does_not_follow_back(
    alice: Player, bob: Player, charlie: Player
) -> None:
    Follow.objects.create(follower=alice, followee=bob)  # one way: no friends
    _running(bob, charlie, public=True)
    resign(play_some(attempt(bob).game, 2))
    row = _row(_page(alice), "bob")
    assert "racing now" not in row
    assert "Daily" not in row


def test_each_friends_last_daily_result_is_shown_and_a_daily_is_no_race(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    earlier = timezone.now() - timedelta(days=3)
    resign(play_some(attempt(bob, now=earlier).game, 1))
    today = play_some(attempt(bob).game, 3)  # still being played
    page = _page(alice)
    row = _row(page, "bob")
    day = daily_today()
    assert f"Daily {day.day} {day:%B}, Sultan:" in row  # the newest day, not the earlier one
    assert "In play" in row
    assert f"{today.cards_played}/95" in row
    assert "racing now" not in row  # a race of one races nobody
    assert "/r/" not in row
    assert "Daily" not in _row(page, "charlie")  # never played one


def test_the_page_reads_what_friends_do_in_queries_that_do_not_grow_with_them(
    alice: Player, bob: Player, charlie: Player, django_assert_max_num_queries: Any
) -> None:
    befriend(alice, bob)
    _running(bob, charlie, public=True)
    resign(play_some(attempt(bob).game, 1))
    client = client_for(alice)
    with CaptureQueriesContext(connection) as one_friend:
        assert client.get("/friends/").status_code == 200
    for n in range(4):
        friend = _account_player(f"friend{n}")
        befriend(alice, friend)
        _running(friend, _account_player(f"other{n}"))
        resign(play_some(attempt(friend).game, 1))
        Follow.objects.create(follower=friend, followee=charlie)  # noise for the lists
    with django_assert_max_num_queries(len(one_friend.captured_queries)):
        page = client.get("/friends/").content.decode()
    assert page.count("racing now") == 5
    assert page.count("friend-daily") == 5


def test_followers_are_listed_with_follow_back_and_block(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    Follow.objects.create(follower=charlie, followee=alice)
    page = _page(alice)
    charlie_row = _row(page, "charlie", "followers-title")
    assert 'action="/@/charlie/follow"' in charlie_row
    assert 'action="/@/charlie/block"' in charlie_row
    bob_row = _row(page, "bob", "followers-title")
    assert "/follow" not in bob_row  # followed already
    assert 'action="/@/bob/block"' in bob_row
    client = client_for(alice)
    response = client.post("/@/charlie/follow", {"next": "/friends/"})
    assert response.status_code == 302
    assert response["Location"] == "/friends/"
    assert Follow.objects.filter(follower=alice, followee=charlie).exists()
    assert "/@/charlie/follow" not in _row(_page(alice), "charlie", "followers-title")
    client.post("/@/bob/block", {"next": "/friends/"})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert 'data-username="bob"' not in _page(alice).split('id="followers-title"')[1]


def test_a_follower_who_is_not_a_friend_gets_no_presence_dot(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    Follow.objects.create(follower=charlie, followee=alice)
    presence_join(player_id=bob.pk, socket_id="tab-bob")
    presence_join(player_id=charlie.pk, socket_id="tab-charlie")
    page = _page(alice)
    assert 'data-presence="charlie"' not in page
    assert "is-online" not in _row(page, "charlie", "followers-title")
    bob_row = _row(page, "bob", "followers-title")
    assert 'data-presence="bob"' in bob_row
    assert "is-online" in bob_row


def test_nobody_following_says_so(alice: Player) -> None:
    assert "Nobody follows you yet." in _page(alice)
