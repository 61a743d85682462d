"""Presence is shared between friends only: a follow needs no consent, so a one-way
follower never learns when the player they follow comes and goes (docs/pages.md)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.friends.models import Follow
from games.friends.services import follow_create, follow_delete
from games.models import Player
from tests.friends.conftest import befriend, session_key, site_connect

pytestmark = pytest.mark.django_db(transaction=True)
db = sync_to_async


def friends_page(viewer: Player) -> str:
    client = Client()
    assert viewer.user is not None
    client.force_login(viewer.user)
    response = client.get("/friends/")
    assert response.status_code == 200
    return response.content.decode()


async def test_a_one_way_follower_sees_no_presence_until_followed_back(
    alice: Player, bob: Player
) -> None:
    await db(Follow.objects.create)(follower=bob, followee=alice)
    bob_site = await site_connect(await db(session_key)(bob))
    alice_site = await site_connect(await db(session_key)(alice))
    assert await bob_site.nothing(0.5)
    await bob_site.send({"type": "sync", "v": 0})
    assert (await bob_site.receive_until("snapshot"))["online"] == []
    page = await db(friends_page)(bob)
    assert 'data-presence="alice"' not in page
    assert "is-online" not in page

    await db(follow_create)(follower=alice, followee=bob)
    came = await bob_site.receive_until("friend")
    assert (came["player"], came["online"]) == ("alice", True)
    await bob_site.send({"type": "sync", "v": 0})
    assert (await bob_site.receive_until("snapshot"))["online"] == ["alice"]
    page = await db(friends_page)(bob)
    assert 'data-presence="alice"' in page
    assert "presence-dot is-online" in page
    await alice_site.close()
    went = await bob_site.receive_until("friend")
    assert (went["player"], went["online"]) == ("alice", False)
    await bob_site.close()


async def test_a_friendship_ended_stops_presence(alice: Player, bob: Player) -> None:
    await db(befriend)(alice, bob)
    bob_site = await site_connect(await db(session_key)(bob))
    alice_site = await site_connect(await db(session_key)(alice))
    assert (await bob_site.receive_until("friend"))["online"] is True
    await db(follow_delete)(follower=alice, followee=bob)
    hidden = await bob_site.receive_until("friend")
    assert (hidden["player"], hidden["online"]) == ("alice", False)
    await alice_site.close()
    again = await site_connect(await db(session_key)(alice))
    assert await bob_site.nothing(0.5)
    await bob_site.send({"type": "sync", "v": 0})
    assert (await bob_site.receive_until("snapshot"))["online"] == []
    await again.close()
    await bob_site.close()
