"""The site is served by Daphne through the ASGI application."""

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.servers import daphne, database_env

ROOT = Path(__file__).resolve().parent.parent


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


def _set_up(*argv: str) -> str:
    """What a process with this argv loads when it sets Django up: Daphne's app or not."""
    code = (
        "import sys, django; django.setup()\n"
        "from django.apps import apps\n"
        "print(apps.is_installed('daphne'), 'daphne.server' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "sultan_site.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_a_process_that_only_sets_django_up_does_not_load_daphne() -> None:
    # A solver process, a management command: Twisted's reactor is 0.9 s of CPU each.
    assert _set_up("migrate") == "False False"


def test_runserver_is_still_served_by_daphne() -> None:
    assert _set_up("runserver") == "True True"
