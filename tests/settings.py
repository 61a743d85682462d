"""The suite's settings: the site's own, with each pytest-xdist worker kept to itself.

Workers run side by side on one machine against one Redis server: each gets a
Redis database of its own (cache, quota counters, presence, the channel
layer's groups) and a channel-layer prefix of its own (pub/sub channels are not
scoped by database number). The variables are set in the environment, before
the site's settings read it, so that every server process a test starts
(tests/servers.py passes the environment on) shares its worker's isolation.
pytest-django gives each worker its own test database (suffix `_gw<N>`);
tests/servers.py names each live server's database after its worker too.

Loaded by pytest-django (pyproject.toml: DJANGO_SETTINGS_MODULE) before any
test module is imported, so tests/services.py reads the worker's URLs.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0, gw1, … under xdist; else empty


def _own_database(url: str, index: int) -> str:
    """The same Redis server, database `index` (1 + the worker's number: 0 stays the
    default of a serial run and of a developer's `make run`)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{index}"))


if WORKER:
    _index = 1 + int(WORKER.removeprefix("gw"))
    for _name, _default in (
        ("REDIS_URL", None),
        ("SULTAN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
    ):
        _url = os.environ.get(_name, _default)
        if _url:
            os.environ[_name] = _own_database(_url, _index)
    os.environ["SULTAN_CHANNEL_PREFIX"] = (
        f"{os.environ.get('SULTAN_CHANNEL_PREFIX', 'asgi')}-{WORKER}"
    )

from sultan_site.settings import *  # noqa: E402, F403

# What a test starts (a server, `manage.py`) runs on the site's own settings, with the
# worker's environment above: this module is the test process's alone.
os.environ["DJANGO_SETTINGS_MODULE"] = "sultan_site.settings"

# Quotas count in fixed windows (games/quotas/quotas.py): a test that spends a quota in
# steps failed when a window's edge fell between its steps (a preflight at 16:40:00 UTC,
# a multiple of ten minutes: the fourth hint was counted afresh and let through). In the
# test process a window is 10**9 s, whose edges fall in 2001 and 2033; the servers tests
# start keep the site's ten minutes.
SULTAN_QUOTA_WINDOW_S = 10**9
