"""The site is served by Daphne through the ASGI application."""

import urllib.request

import pytest

from tests.servers import daphne, database_env


@pytest.fixture(scope="module")
def server():
    with database_env("site") as env, daphne(env) as live:
        yield live


def test_daphne_serves_the_home_page(server):
    with urllib.request.urlopen(f"{server.url}/") as response:
        body = response.read().decode()
        assert response.status == 200
        assert response.headers["Server"].startswith("daphne")
    assert "<title>Sultan" in body
    assert 'action="/races/new"' in body


def test_daphne_serves_static_files(server):
    with urllib.request.urlopen(f"{server.url}/static/css/site.css") as response:
        assert response.status == 200
        assert "--felt" in response.read().decode()
