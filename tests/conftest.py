"""Shared fixtures: the personas of the store's tests and the database guards.

alice races, bob races against her, charlie is an outsider to their games,
moderator is staff with `games.moderate`, staff_without_permission is staff
without it. Players are account players (a User with its Player).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.db import connection
from django.utils import timezone, translation

from games.accounts.services import player_for_user
from games.bots.house import house_bot_forget
from games.models import Player, Race, RaceStatus
from games.races.limits import admission
from games.store.append_only import log_erasure_allowed
from games.store.cache import positions
from games.tournaments.announce import announce_forget
from tests.production import collect_static
from tests.servers import migrate
from tests.services import fresh_postgres_database

pytest_plugins = ["tests.weights"]


@pytest.fixture(autouse=True)
def _append_only_between_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    """Logs are append-only during a test; Django may empty them after one.

    Django's flush after a transactional test is `DELETE FROM` on SQLite, which
    the append-only triggers refuse unless told otherwise. Setting the database
    up first (when the test uses it) makes its flush run after this teardown.
    """
    _database_first(request)
    log_erasure_allowed(False)
    positions.clear()
    yield
    positions.clear()
    log_erasure_allowed(True)


@pytest.fixture(autouse=True)
def _timers_forgotten(request: pytest.FixtureRequest) -> Iterator[None]:
    """No timer of this process waits past its test: a tournament frame
    (games/tournaments/announce.py) due after its test reached the database from its
    timer's thread during the next, and a house bot's fill (games/bots/house.py) logged
    its error into a later test's records."""
    _database_first(request)
    yield
    announce_forget()
    house_bot_forget()


def _database_first(request: pytest.FixtureRequest) -> None:
    """Set the test's database up before the calling fixture, so that fixture's teardown
    runs while the database is still the test's."""
    uses_db = request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db"} & set(request.fixturenames)
    )
    if uses_db:
        request.getfixturevalue("_django_db_helper")


@pytest.fixture(autouse=True)
def _language_afresh() -> Iterator[None]:
    """Every test starts and ends in the site's default language.

    A request through Django's test client runs in the test's own thread, and its
    LocaleMiddleware activates the reader's language there with nothing to end it: a
    test of a Russian page left Russian active for whatever ran next in its worker
    (a refusal's English words were Russian in test_only_guests_are_renamed)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _cache_afresh() -> None:
    """Every test starts with an empty cache: no quota spent (games/quotas/; all tests come
    from one address), and no figure another test cached (a finished day's daily board is
    cached for good: a test that read a day before another played it saw that empty board
    on Redis, where the cache outlives the test's database rows)."""
    _cache_clear()


@pytest.fixture(autouse=True)
def _socket_admission_afresh() -> None:
    """Every test's sockets start with full buckets and none open (games/races/limits.py):
    all tests' sockets come from one address."""
    admission.__init__()  # type: ignore[misc]


def _cache_clear() -> None:
    if settings.REDIS_URL:
        # The cache shares its Redis database with the channel layer: only the cache's
        # keys go (its prefix: quota counters, boards, presence), never the layer's.
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{settings.REDIS_KEY_PREFIX}:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    else:
        cache.clear()


def _account_player(username: str) -> Player:
    # No password: hashing one costs half a second; tests sign in with force_login.
    user = User.objects.create_user(username=username)
    return player_for_user(user=user)


@pytest.fixture
def alice(db: None) -> Player:
    return _account_player("alice")


@pytest.fixture
def bob(db: None) -> Player:
    return _account_player("bob")


@pytest.fixture
def charlie(db: None) -> Player:
    return _account_player("charlie")


@pytest.fixture
def moderator(db: None) -> User:
    user = User.objects.create_user(username="moderator", is_staff=True)
    moderate = Permission.objects.get(codename="moderate", content_type__app_label="games")
    user.user_permissions.add(moderate)
    return User.objects.get(pk=user.pk)  # a fresh instance: permissions are cached per object


@pytest.fixture
def staff_without_permission(db: None) -> User:
    return User.objects.create_user(username="staffer", is_staff=True)


@pytest.fixture
def running_race(alice: Player) -> Race:
    """A race alice hosts, started a second ago."""
    starts_at = timezone.now() - timedelta(seconds=1)
    return Race.objects.create(
        host=alice,
        variant="sultan",
        seed=424242,
        status=RaceStatus.RUNNING,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(seconds=900),  # the time limit's default
    )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database, with no session of ours left on it when it is dropped.

    Database calls made from worker threads (Channels' `database_sync_to_async`
    outside the one sync thread) keep their thread's connection open, and
    PostgreSQL refuses to drop a database while a session is on it.
    """
    yield
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    _pool_afresh()


def _pool_afresh() -> None:
    """A new PostgreSQL pool when a test's worker threads left connections checked out.

    A socket test's database calls run on its event loop's executor threads
    (common/db_threads.db). When the loop closes at the test's end, a thread can
    end with its connection never handed back, and the pool counts it out for
    good: after ~20 socket tests every checkout timed out (the suite on
    PostgreSQL failed its race tests). A server's threads live as long as it
    does, so this is the tests' own housekeeping.
    """
    pool = getattr(connection, "pool", None) if connection.vendor == "postgresql" else None
    if pool is None or _loop_running():
        return  # (Playwright's sync API keeps a loop running in this thread: no ORM here)
    connection.close()
    stats = pool.get_stats()
    if stats.get("pool_size", 0) > stats.get("pool_available", 0):
        connection.close_pool()  # type: ignore[attr-defined]


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[str]:
    """The name of a PostgreSQL database migrated from this tree, once per worker, for the
    deployment tests and the fault scripts to copy (`CREATE DATABASE … TEMPLATE`:
    milliseconds, where a migration is ~15 s of CPU)."""
    with fresh_postgres_database("migrated_template") as url:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        migrate({**env, "DJANGO_SETTINGS_MODULE": "sultan_site.settings", "DATABASE_URL": url})
        yield urlsplit(url).path.lstrip("/")


@pytest.fixture(scope="session")
def collected_static() -> Iterator[str]:
    """A STATIC_ROOT collectstatic has filled with production's settings, once per worker
    for the deployment tests and the fault scripts (SULTAN_COLLECTED_STATIC). World-readable:
    nginx's workers (nobody) serve from it."""
    root = Path(tempfile.mkdtemp(prefix="sultan-static-"))
    root.chmod(0o755)
    try:
        collect_static(root)
        yield str(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
