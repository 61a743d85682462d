"""A socket on a path nothing serves, with a cookie or a token: a clean 4404, never an error."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from sultan_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def _close_code(path: str, headers: list[tuple[bytes, bytes]]) -> int | None:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await socket.connect(timeout=10)
    assert not connected
    return None if code is None else int(code)


@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/races/", "/ws/races/a/b/c/", "/"])
async def test_it_closes_a_browsers_socket_on_an_unknown_path_with_4404(path: str) -> None:
    assert await _close_code(path, [(b"origin", b"http://127.0.0.1")]) == 4404


@pytest.mark.parametrize("path", ["/ws/site/", "/ws/tournaments/abcd-efgh/", "/ws/nowhere/"])
async def test_it_closes_a_tokens_socket_on_a_path_that_takes_no_token_with_4404(
    path: str, alice_play: str
) -> None:
    headers = [(b"authorization", f"Bearer {alice_play}".encode())]
    assert await _close_code(path, headers) == 4404
