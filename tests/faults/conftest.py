"""What every fault script's topology would otherwise make for itself, made once per worker."""

from __future__ import annotations

import os
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.servers import migrate
from tests.services import fresh_postgres_database


@pytest.fixture(scope="session")
def prepared(collected_static: str) -> Iterator[dict[str, str]]:
    """The scripts' environment: the collected static root, and a migrated PostgreSQL
    database each script's own database is copied from (bench/faults/harness.py). A
    migration is ~15 s of CPU; five scripts each ran their own."""
    with fresh_postgres_database("faults_template") as url:
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        migrate({**env, "DJANGO_SETTINGS_MODULE": "sultan_site.settings", "DATABASE_URL": url})
        yield {
            "SULTAN_COLLECTED_STATIC": collected_static,
            "SULTAN_MIGRATED_TEMPLATE": urlsplit(url).path.lstrip("/"),
        }
