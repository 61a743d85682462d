"""Django set up inside a bench script's own process, on a database of its own.

For benches that measure reads and writes without a server between (bench/api_export.py,
bench/ratings.py): PostgreSQL at `database_url` when given, else a fresh SQLite file; never
Redis, whose channel layer nothing here uses.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_in_process(database_url: str | None, **env: str) -> None:
    """Point Django at the bench's database (with `env` as defaults), set it up, migrate."""
    sys.path.insert(0, str(ROOT))
    os.environ.pop("REDIS_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    for key, value in env.items():
        os.environ.setdefault(key, value)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
