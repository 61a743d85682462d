"""Bots on live servers: an account made over HTTP as a person would, its play token
read off the account page, and the greedy bot of docs/api.md loaded from the page itself."""

from __future__ import annotations

import re
import types
import urllib.request
from pathlib import Path
from typing import Any

from tests.live import WebClient

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def docs_bot() -> types.ModuleType:
    """The 40-line bot, exactly as docs/api.md prints it."""
    text = DOCS.read_text()
    code = re.search(r"### A greedy bot in 40 lines.*?```python\n(.*?)```", text, re.S)
    assert code, "docs/api.md has lost its bot"
    module = types.ModuleType("docs_bot")
    exec(compile(code.group(1), str(DOCS), "exec"), module.__dict__)
    return module


def account_with_token(base: str, username: str, scope: str = "play") -> tuple[WebClient, str]:
    client = WebClient(base)
    password = "correct horse battery staple"
    client.post(
        "/accounts/signup/", {"username": username, "password1": password, "password2": password}
    )
    if client.cookie("csrftoken") is None:
        client.get("/")
    status, page = _post_page(client, "/accounts/tokens/", {"name": "bot", "scope": scope})
    assert status == 200
    found = re.search(r'value="(sultan_[^"]+)"', page)
    assert found, "the account page showed no new token"
    return client, found.group(1)


def _post_page(client: WebClient, path: str, fields: dict[str, Any]) -> tuple[int, str]:
    import urllib.parse

    data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": client.cookie("csrftoken")})
    request = urllib.request.Request(
        client.base + path, data=data.encode(), headers={"Referer": client.base + "/"}
    )
    with client.opener.open(request, timeout=10) as response:
        return response.status, response.read().decode()


def api(base: str, path: str, token: str, method: str = "GET", accept: str = "") -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    if accept:
        headers["Accept"] = accept
    request = urllib.request.Request(base + path, method=method, headers=headers)
    return urllib.request.urlopen(request, timeout=30)
