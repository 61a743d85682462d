"""Production's environment for the tests that start what an operator would (deployment
checks, the fault scripts), and its static files collected once per worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k" * 20 + "-not-a-real-secret-but-long-and-varied-0123456789",
    "DJANGO_ALLOWED_HOSTS": "sultan.example",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://sultan.example",
}


def production_run(code: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """`python <code>` in the project with only `env` of Django's, the database's and
    Redis' settings: what an operator's process would see."""
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    return subprocess.run(
        [sys.executable, *code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "sultan_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def collect_static(root: Path) -> None:
    """collectstatic with production's settings into `root` (some 5–20 s: the files are
    hashed and compressed)."""
    done = production_run(
        ["manage.py", "collectstatic", "--noinput", "-v0"],
        **PRODUCTION,
        DJANGO_STATIC_ROOT=str(root),
    )
    assert done.returncode == 0, done.stderr
