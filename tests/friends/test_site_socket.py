"""The site socket end to end through the real ASGI application."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from games.accounts.services import player_create_guest
from games.friends.services import invitation_send
from games.models import Player, RaceEntry
from tests.friends.conftest import befriend, communicator, session_key, site_connect

pytestmark = pytest.mark.django_db(transaction=True)
db = sync_to_async


async def test_a_player_gets_a_snapshot_of_pending_invitations_and_friends_online(
    alice: Player, bob: Player
) -> None:
    await db(befriend)(alice, bob)
    bob_site = await site_connect(await db(session_key)(bob))
    await db(invitation_send)(inviter=bob, invitees=[alice], address="127.0.0.1")
    alice_site = await site_connect(await db(session_key)(alice))
    snapshot = alice_site.frames[0]
    assert snapshot["online"] == ["bob"]
    (invitation,) = snapshot["invitations"]
    assert invitation["from"] == "bob"
    assert invitation["variant_label"]
    await alice_site.close()
    await bob_site.close()


async def test_a_guest_has_no_site_socket() -> None:
    guest = await db(player_create_guest)(nickname="dave")
    assert guest.is_guest
    comm = communicator(None)
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_an_invitation_arrives_and_accepting_seats_and_tells_the_inviter(
    alice: Player, bob: Player
) -> None:
    await db(befriend)(alice, bob)
    alice_site = await site_connect(await db(session_key)(alice))
    bob_site = await site_connect(await db(session_key)(bob))
    await alice_site.receive_until("friend")  # bob came online
    (made,) = await db(invitation_send)(inviter=alice, invitees=[bob], address="127.0.0.1")
    arrived = await bob_site.receive_until("invitation")
    assert arrived["invitation"]["id"] == made.pk
    await bob_site.send({"type": "answer", "id": "a1", "invitation": made.pk, "accept": True})
    ack = await bob_site.receive_until("ack")
    assert ack["url"] == f"/r/{made.race.code}/"
    assert await db(RaceEntry.objects.filter(race=made.race, player=bob).exists)()
    closed = await alice_site.receive_until("invitation_closed")
    assert (closed["status"], closed["who"]) == ("accepted", "bob")
    await alice_site.close()
    await bob_site.close()


async def test_versions_grow_by_one_and_sync_answers_a_snapshot(alice: Player, bob: Player) -> None:
    await db(befriend)(alice, bob)
    alice_site = await site_connect(await db(session_key)(alice))
    start = alice_site.frames[0]["v"]
    bob_site = await site_connect(await db(session_key)(bob))
    came = await alice_site.receive_until("friend")
    await bob_site.close()
    went = await alice_site.receive_until("friend")
    assert (came["online"], went["online"]) == (True, False)
    assert [came["v"], went["v"]] == [start + 1, start + 2]
    await alice_site.send({"type": "sync", "v": start})
    snapshot = await alice_site.receive_until("snapshot")
    assert snapshot["v"] == start + 2
    assert snapshot["online"] == []
    await alice_site.close()


async def test_a_second_tab_does_not_tell_friends_twice(alice: Player, bob: Player) -> None:
    await db(befriend)(alice, bob)
    key = await db(session_key)(bob)
    alice_site = await site_connect(await db(session_key)(alice))
    first = await site_connect(key)
    await alice_site.receive_until("friend")
    second = await site_connect(key)
    await first.close()
    assert await alice_site.nothing()
    await second.close()
    went = await alice_site.receive_until("friend")
    assert went["online"] is False
    await alice_site.close()


async def test_a_bad_frame_is_answered_with_an_error_and_a_wrong_answer_rejected(
    alice: Player,
) -> None:
    site = await site_connect(await db(session_key)(alice))
    await site.send("not json")
    assert (await site.receive())["code"] == "bad_json"
    await site.send({"type": "answer", "id": "x", "invitation": 99999, "accept": True})
    reject = await site.receive_until("reject")
    assert (reject["id"], reject["code"]) == ("x", "not_found")
    await site.close()


async def test_a_flooding_client_is_told_once_then_closed(alice: Player, settings: Any) -> None:
    settings.WS_RATE_PER_S = 2
    site = await site_connect(await db(session_key)(alice))
    for _ in range(4):
        await site.send({"type": "ping"})
    frames = [await site.receive() for _ in range(3)]
    assert [f["type"] for f in frames].count("error") == 1
    assert next(f for f in frames if f["type"] == "error")["code"] == "flood"
    await site.close()


async def test_a_decline_tells_the_inviter_who_and_the_invitee_only_that_it_is_theirs(
    alice: Player, bob: Player
) -> None:
    """#38 point 1: the invitee's tabs must not word the inviter's line."""
    await db(befriend)(alice, bob)
    alice_site = await site_connect(await db(session_key)(alice))
    bob_site = await site_connect(await db(session_key)(bob))
    (made,) = await db(invitation_send)(inviter=alice, invitees=[bob], address="127.0.0.1")
    await bob_site.receive_until("invitation")
    await bob_site.send({"type": "answer", "id": "d1", "invitation": made.pk, "accept": False})
    got: dict[str, dict[str, Any]] = {}
    while len(got) < 2:  # the ack and the closing, in whichever order they come
        frame = await bob_site.receive()
        if frame["type"] in ("ack", "invitation_closed"):
            got[frame["type"]] = frame
    ack, to_bob = got["ack"], got["invitation_closed"]
    assert (ack["accepted"], ack["url"]) == (False, "")
    to_alice = await alice_site.receive_until("invitation_closed")
    assert (to_bob["status"], to_bob["side"]) == ("declined", "invitee")
    assert (to_alice["status"], to_alice["side"], to_alice["who"]) == ("declined", "inviter", "bob")
    assert await bob_site.nothing()
    await alice_site.close()
    await bob_site.close()
