"""Work for a solver process that reports on the process itself. Never imports Django:
a solver process imports this module to run it."""

from __future__ import annotations

import sys


def django_modules() -> list[str]:
    """The Django modules this process has imported."""
    return sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
