"""Head-to-head on a finished race's results: each racer's record against the others,
asked once the race is over (/api/races/<code>/head-to-head), for its racers only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.accounts.services import player_for_user
from games.friends.headtohead import Record, race_records
from games.models import Player, Race
from games.races.services import race_create, race_join, race_start
from tests.pages.helpers import client_for
from tests.ratings.conftest import finish_race

pytestmark = pytest.mark.django_db


def _race(first: Player, *others: Player) -> Race:
    """A finished race `first` wins: one card played against none (the others tie)."""
    return finish_race([first, *others], rated=False, moves=[1] + [0] * len(others))


def _account(name: str) -> Player:
    return player_for_user(user=User.objects.create_user(username=name))


def _records(client: Client, race: Race) -> tuple[int, Any]:
    answer = client.get(f"/api/races/{race.code}/head-to-head")
    return answer.status_code, answer.json()


def test_it_gives_each_racer_their_record_against_each_other_racer_this_race_counted(
    alice: Player, bob: Player, charlie: Player
) -> None:
    _race(bob, alice)
    _race(alice, charlie)
    race = _race(alice, bob, charlie)
    status, body = _records(client_for(alice), race)
    assert status == 200
    assert body == {
        "type": "head_to_head",
        "records": [
            {"player": bob.pk, "nickname": "bob", "url": "/@/bob/#head-to-head", "races": 2}
            | {"you": 1, "them": 1},
            {"player": charlie.pk, "nickname": "charlie", "url": "/@/charlie/#head-to-head"}
            | {"races": 2, "you": 2, "them": 0},
        ],
    }
    status, body = _records(client_for(bob), race)
    # bob and charlie tied this race (neither played a card): it counts for neither.
    assert [(r["nickname"], r["races"], r["you"], r["them"]) for r in body["records"]] == [
        ("alice", 2, 1, 1),
        ("charlie", 1, 0, 0),
    ]


def test_it_leaves_guests_out_and_counts_bots_as_the_accounts_they_are(
    alice: Player, bob: Player
) -> None:
    guest = Player.objects.create(nickname="visitor")
    robot = _account("robot")
    Player.objects.filter(pk=robot.pk).update(is_bot=True)
    race = _race(alice, guest, robot)
    _, body = _records(client_for(alice), race)
    assert [(r["nickname"], r["races"], r["you"]) for r in body["records"]] == [("robot", 1, 1)]


def test_it_refuses_an_anonymous_visitor_a_guest_a_spectator_and_an_unknown_race(
    alice: Player, bob: Player, charlie: Player
) -> None:
    race = _race(alice, bob)
    status, body = _records(Client(), race)
    assert (status, body["type"], body["code"]) == (403, "error", "sign_in")
    assert body["message"] == "log in to see your records against racers"
    status, body = _records(client_for(charlie), race)
    assert (status, body["code"]) == (403, "not_racer")
    assert body["message"] == "only this race's racers see their records"
    status, body = _records(client_for(alice), Race(code="none-such"))
    assert (status, body["code"]) == (404, "not_found")
    visitor = Player.objects.create(nickname="visitor")
    raced = _race(visitor, alice)
    guest = Client()
    session = guest.session
    session[SESSION_PLAYER_KEY] = visitor.pk
    session.save()
    status, body = _records(guest, raced)  # a guest racer, who has no profile either
    assert (status, body["code"]) == (403, "sign_in")


def test_it_says_nothing_of_a_race_still_running(alice: Player, bob: Player) -> None:
    _race(alice, bob)
    race = race_create(host=alice, variant="sultan")
    race_join(race=race, player=bob)
    assert _records(client_for(alice), race)[1]["code"] == "not_over"
    race_start(race=race, player=alice, countdown_s=0)
    status, body = _records(client_for(bob), race)
    assert (status, body["code"]) == (403, "not_over")
    assert body["message"] == "records show once the race is over"
    assert "races" not in str(body)


def test_its_queries_do_not_grow_with_the_number_of_opponents(alice: Player) -> None:
    client = client_for(alice)
    few = _race(alice, _account("ann"))
    many = [_account(f"racer{n}") for n in range(6)]
    _race(alice, *many[:3])
    crowded = _race(alice, *many)
    with CaptureQueriesContext(connection) as one:
        assert len(_records(client, few)[1]["records"]) == 1
    with CaptureQueriesContext(connection) as six:
        assert len(_records(client, crowded)[1]["records"]) == 6
    assert len(six.captured_queries) == len(one.captured_queries)
    with CaptureQueriesContext(connection) as counted:
        records = race_records(me=alice, others=[p.pk for p in many])
    assert len(counted.captured_queries) == 1
    assert records[many[0].pk] == Record(played=2, ahead=2, behind=0)
    assert records[many[5].pk] == Record(played=1, ahead=1, behind=0)


def test_the_race_page_asks_for_records_only_for_a_signed_in_racer(
    alice: Player, bob: Player
) -> None:
    race = _race(alice, bob)
    assert 'data-head-to-head="true"' in client_for(alice).get(f"/r/{race.code}/").content.decode()
    assert 'data-head-to-head="true"' not in Client().get(f"/r/{race.code}/").content.decode()
