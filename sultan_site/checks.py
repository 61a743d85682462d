"""What production cannot run without, said at start-up instead of a 500 on every page.

With DJANGO_DEBUG=0 the static files are named through collectstatic's manifest
(settings.STORAGES): without it, or with one older than the code, every page
that links a stylesheet fails to render. A placeholder secret key signs
sessions anyone can forge; no allowed host answers every request 400.

These are Django system checks (tag `production`): `manage.py check` and
`migrate` run them (compose's migrate service, deploy/serve_prod.py's start),
and `production_start_check` runs them when a server process loads
sultan_site/asgi.py, so Daphne stops with the message. `collectstatic` runs only
the staticfiles checks: it is never refused for want of what it makes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from django.apps import AppConfig
from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.checks import CheckMessage, Error, register, run_checks
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

PRODUCTION: Final = "production"
COLLECT: Final = "python manage.py collectstatic --noinput"
# Keys that ship with the project: the development one, the Dockerfile's build-time
# one, .env.example's. Any of them in production signs sessions anyone can forge.
PLACEHOLDER_KEYS: Final = frozenset(
    {"dev-only-insecure-key-never-used-in-production", "collectstatic-only-not-a-secret"}
)
PLACEHOLDER_PREFIXES: Final = ("change-me", "django-insecure-")
# collectstatic's default ignore patterns: what it would not have copied.
_IGNORED: Final = ["CVS", ".*", "*~"]


def _manifest_name() -> str | None:
    """The manifest's file name when the static storage names files through one."""
    backend = import_string(settings.STORAGES["staticfiles"]["BACKEND"])
    if isinstance(backend, type) and issubclass(backend, ManifestFilesMixin):
        return str(backend.manifest_name)
    return None


def _collectable() -> Iterator[str]:
    """Every static file collectstatic would copy, as the manifest names it."""
    for finder in get_finders():
        for path, _storage in finder.list(_IGNORED):
            yield Path(path).as_posix()


@register(PRODUCTION)
def static_manifest_check(app_configs: Sequence[AppConfig] | None, **_: Any) -> list[CheckMessage]:
    if settings.DEBUG:
        return []
    name = _manifest_name()
    if name is None:
        return []
    path = Path(settings.STATIC_ROOT) / name
    hint = (
        f"Run `{COLLECT}` with the same settings (make serve-prod and the Docker image do), "
        "or point DJANGO_STATIC_ROOT at where it wrote."
    )
    try:
        paths = json.loads(path.read_text(encoding="utf-8"))["paths"]
    except FileNotFoundError:
        msg = (
            f"DJANGO_DEBUG is off and the static files' manifest {path} is missing: "
            "every page would answer 500."
        )
        return [Error(msg, hint=hint, id="sultan.E001")]
    except (OSError, ValueError, KeyError, TypeError) as broken:
        msg = f"The static files' manifest {path} cannot be read ({broken})."
        return [Error(msg, hint=hint, id="sultan.E001")]
    missing = sorted(set(_collectable()) - set(paths))
    if missing:
        msg = (
            f"{len(missing)} static file(s) are not in the manifest {path} "
            f"(first: {missing[0]}): it is older than the code, and pages linking them answer 500."
        )
        return [Error(msg, hint=hint, id="sultan.E002")]
    return []


@register(PRODUCTION)
def secret_key_check(app_configs: Sequence[AppConfig] | None, **_: Any) -> list[CheckMessage]:
    # A missing key stops the settings themselves (sultan_site/settings.py).
    key = str(settings.SECRET_KEY)
    if settings.DEBUG or not (key in PLACEHOLDER_KEYS or key.startswith(PLACEHOLDER_PREFIXES)):
        return []
    msg = "DJANGO_DEBUG is off and DJANGO_SECRET_KEY is a placeholder that ships with the project."
    hint = (
        "Set DJANGO_SECRET_KEY to a long random secret, e.g. "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, and keep it."
    )
    return [Error(msg, hint=hint, id="sultan.E003")]


@register(PRODUCTION)
def allowed_hosts_check(app_configs: Sequence[AppConfig] | None, **_: Any) -> list[CheckMessage]:
    if settings.DEBUG or settings.ALLOWED_HOSTS:
        return []
    msg = "DJANGO_DEBUG is off and no host is allowed: every request would answer 400."
    hint = "Set DJANGO_ALLOWED_HOSTS to the site's host names, comma-separated."
    return [Error(msg, hint=hint, id="sultan.E004")]


def production_start_check() -> None:
    """Stop a server process that production settings could not serve from, with the reasons."""
    if settings.DEBUG:
        return
    errors = [m for m in run_checks(tags=[PRODUCTION]) if m.is_serious()]
    if errors:
        lines = [f"{m.id}: {m.msg}" + (f"\n    HINT: {m.hint}" if m.hint else "") for m in errors]
        raise ImproperlyConfigured("Sultan cannot start:\n" + "\n".join(lines))
