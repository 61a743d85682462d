"""Refresh the translations from the code: `make messages` (docs/pages.md, "Language").

Collects every marked string of the templates and Python (domain `django`)
and of the ES modules (domain `djangojs`) into locale/<lang>/LC_MESSAGES/*.po,
keeping the translations already there, then compiles the .mo files that are
committed beside them. Needs GNU gettext (apt: gettext); running the site does
not. The test of the catalogues runs this same command on a copy of the tree.
"""

from __future__ import annotations

from typing import Any, Final

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

# Not the site's strings: tests, benchmarks, deployment, docs, collected static
# files, and the board's stand-alone demo page.
# frontend/static/vendor: others' code, copied (Redoc): none of its strings are ours.
IGNORED: Final = (
    "tests",
    "bench",
    "deploy",
    "docs",
    "staticfiles",
    "frontend/static/demo",
    "frontend/static/vendor",
)


class Command(BaseCommand):
    help = "Collect the marked strings into locale/*/LC_MESSAGES/*.po and compile them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-compile", action="store_true", help="only refresh the .po files")

    def handle(self, *args: Any, **options: Any) -> None:
        languages = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
        for domain in ("django", "djangojs"):
            call_command(
                "makemessages",
                locale=languages,
                domain=domain,
                ignore_patterns=list(IGNORED),
                add_location="file",
                verbosity=options["verbosity"],
            )
        if not options["no_compile"]:
            call_command(
                "compilemessages", ignore_patterns=[".venv"], verbosity=options["verbosity"]
            )
