"""What the deployment tests share lives in tests/production.py (the fault scripts use it
too) and tests/conftest.py (`collected_static`); the names stay importable from here."""

from __future__ import annotations

from tests.production import PRODUCTION, production_run

__all__ = ["PRODUCTION", "production_run"]
