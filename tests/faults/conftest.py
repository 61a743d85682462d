"""What every fault script's topology would otherwise make for itself, made once per worker."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def prepared(collected_static: str, migrated_postgres: str) -> dict[str, str]:
    """The scripts' environment: the collected static root, and a migrated PostgreSQL
    database each script's own database is copied from (bench/faults/harness.py). A
    migration is ~15 s of CPU; five scripts each ran their own."""
    return {
        "SULTAN_COLLECTED_STATIC": collected_static,
        "SULTAN_MIGRATED_TEMPLATE": migrated_postgres,
    }
