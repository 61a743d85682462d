"""Every socket counts against its address and its player, whatever opened it: a session
cookie or a program's bearer token, on the race, site or tournament socket (issue 36,
point 4: 70 bearer sockets and 10 browser ones were held open from one address against
a limit of 50, because sockets with a token were never counted)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games.accounts.services import player_for_user
from games.api.services import token_create
from games.bots.house import house_bot_player
from games.models import Player
from games.races.limits import admission
from sultan_site.asgi import application
from tests.races.conftest import Lobby
from tests.races.helpers import db

pytestmark = pytest.mark.django_db(transaction=True)


def _account(username: str) -> Player:
    return player_for_user(user=User.objects.create_user(username=username))


def _play_token(username: str) -> str:
    return _token_of(_account(username), "bot")


def _token_of(player: Player, name: str) -> str:
    return token_create(player=player, name=name, scope="play").secret


def _login_key(player: Player) -> str:
    client = Client()
    assert player.user is not None
    client.force_login(player.user)
    return client.cookies["sessionid"].value


def _socket(
    path: str, *, address: str, secret: str | None = None, cookie: str | None = None
) -> WebsocketCommunicator:
    if secret is not None:
        headers = [(b"authorization", f"Bearer {secret}".encode())]
    else:
        headers = [(b"origin", b"http://127.0.0.1"), (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = (address, 40000)  # the peer, as Daphne gives it
    return communicator


class Held:
    """Sockets held open for a test, closed at its end."""

    def __init__(self) -> None:
        self.sockets: list[WebsocketCommunicator] = []

    async def open(self, communicator: WebsocketCommunicator) -> tuple[bool, int | None]:
        connected, code = await communicator.connect(timeout=10)
        if connected:
            await communicator.receive_from(timeout=10)  # its first frame: the work is done
            self.sockets.append(communicator)
        return connected, code

    async def close_one(self) -> None:
        await self.sockets.pop().disconnect()

    async def close(self) -> None:
        while self.sockets:
            await self.close_one()


@pytest.fixture
async def held() -> Any:
    sockets = Held()
    yield sockets
    await sockets.close()


async def test_it_refuses_bearer_sockets_beyond_the_per_address_cap(
    started: Lobby, settings: Any, held: Held
):
    settings.WS_OPEN_PER_ADDRESS = 3
    path = f"/ws/races/{started.race.code}/"
    secrets = [await db(_play_token)(f"bot{n}") for n in range(5)]
    for secret in secrets[:3]:
        assert await held.open(_socket(path, address="10.0.0.1", secret=secret)) == (True, None)
    refused = await held.open(_socket(path, address="10.0.0.1", secret=secrets[3]))
    assert refused == (False, 4008)
    # Another address is not held to this one's sockets.
    assert await held.open(_socket(path, address="10.0.0.2", secret=secrets[4])) == (True, None)
    # A socket closed makes room again.
    await held.sockets[0].disconnect()
    held.sockets.pop(0)
    assert await held.open(_socket(path, address="10.0.0.1", secret=secrets[3])) == (True, None)


async def test_it_counts_bearer_and_cookie_sockets_of_one_address_together(
    started: Lobby, settings: Any, held: Held
):
    settings.WS_OPEN_PER_ADDRESS = 4
    race = f"/ws/races/{started.race.code}/"
    for n in range(2):
        secret = await db(_play_token)(f"bot{n}")
        assert await held.open(_socket(race, address="10.0.0.1", secret=secret)) == (True, None)
    for name in ("alice", "bob"):
        cookie = started.keys[name]
        assert await held.open(_socket(race, address="10.0.0.1", cookie=cookie)) == (True, None)
    # Full, whichever way the next socket comes, on any of the site's sockets.
    late_bot = await db(_play_token)("late")
    assert await held.open(_socket(race, address="10.0.0.1", secret=late_bot)) == (False, 4008)
    cookie = started.keys["charlie"]
    assert await held.open(_socket(race, address="10.0.0.1", cookie=cookie)) == (False, 4008)
    member = await db(_account)("member")
    site = _socket("/ws/site/", address="10.0.0.1", cookie=await db(_login_key)(member))
    assert await held.open(site) == (False, 4008)


async def test_it_caps_one_players_sockets_across_addresses(
    started: Lobby, settings: Any, held: Held
):
    settings.WS_OPEN_PER_PLAYER = 3
    race = f"/ws/races/{started.race.code}/"
    alice = await db(_account)("alice-account")
    secret = await db(_token_of)(alice, "bot")
    cookie = await db(_login_key)(alice)
    # Her bot from two machines, and her browser's site socket from a third address.
    assert await held.open(_socket(race, address="10.0.0.1", secret=secret)) == (True, None)
    assert await held.open(_socket(race, address="10.0.0.2", secret=secret)) == (True, None)
    site = _socket("/ws/site/", address="10.0.0.3", cookie=cookie)
    assert await held.open(site) == (True, None)
    # A fourth, from a fresh address, by token or by cookie: refused.
    assert await held.open(_socket(race, address="10.0.0.4", secret=secret)) == (False, 4008)
    assert await held.open(_socket(race, address="10.0.0.5", cookie=cookie)) == (False, 4008)
    # Someone else from those addresses is not held to her cap.
    other = await db(_play_token)("someone")
    assert await held.open(_socket(race, address="10.0.0.4", secret=other)) == (True, None)
    # One of hers closed makes room for one more.
    await held.close_one()
    await held.sockets.pop().disconnect()  # her site socket
    assert await held.open(_socket(race, address="10.0.0.5", cookie=cookie)) == (True, None)


async def test_a_guests_sockets_are_capped_by_its_session(
    started: Lobby, settings: Any, held: Held
):
    settings.WS_OPEN_PER_PLAYER = 2
    race = f"/ws/races/{started.race.code}/"
    cookie = started.keys["alice"]
    for address in ("10.0.0.1", "10.0.0.2"):
        assert await held.open(_socket(race, address=address, cookie=cookie)) == (True, None)
    assert await held.open(_socket(race, address="10.0.0.3", cookie=cookie)) == (False, 4008)


async def test_the_house_bots_sockets_are_the_servers_own_and_not_capped(
    started: Lobby, settings: Any, held: Held
):
    """The house bot opens one socket per race its hosts seated it in, all from the
    server's own address: a cap there would leave seated bots unable to play."""
    settings.WS_OPEN_PER_ADDRESS = 1
    settings.WS_OPEN_PER_PLAYER = 1
    race = f"/ws/races/{started.race.code}/"
    bot = await db(house_bot_player)()
    for n in range(3):
        secret = await db(_token_of)(bot, f"race {n}")
        assert await held.open(_socket(race, address="127.0.0.1", secret=secret)) == (True, None)
    # They are not counted against the address either.
    cookie = started.keys["alice"]
    assert await held.open(_socket(race, address="127.0.0.1", cookie=cookie)) == (True, None)


async def test_a_loop_of_invented_tokens_meets_its_addresss_bucket_before_any_lookup(
    started: Lobby, settings: Any
):
    """A bearer socket took no part in its address's connect bucket: each invented
    token cost a lookup, without end."""
    settings.WS_ADDRESS_CONNECT_BURST = 3
    settings.WS_ADDRESS_CONNECTS_PER_MIN = 1
    admission.__init__()  # type: ignore[misc]  # its buckets are sized when made
    race = f"/ws/races/{started.race.code}/"
    closes = []
    for n in range(4):
        socket = _socket(race, address="10.0.0.9", secret=f"sultan_invented{n}")
        closes.append(await socket.connect(timeout=10))
    assert closes == [(False, 4403)] * 3 + [(False, 4008)]
    # The bucket is the address's: a cookie from it is refused too, another address is not.
    cookie = started.keys["alice"]
    assert await _socket(race, address="10.0.0.9", cookie=cookie).connect(timeout=10) == (
        False,
        4008,
    )
    assert await _socket(race, address="10.0.0.10", secret="sultan_invented").connect(
        timeout=10
    ) == (False, 4403)
