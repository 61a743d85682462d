"""Strict readers for settings that come from the environment.

A value that is present but malformed is an error at start-up: a typo in a
deployment must never silently fall back to a default.
"""

import os
from collections.abc import Mapping
from urllib.parse import urlsplit


class ConfigError(Exception):
    pass


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(
        f"{name}={raw!r} is not a boolean (use one of 1/0, true/false, yes/no, on/off)"
    )


def env_int(name: str, default: int, environ: Mapping[str, str] | None = None) -> int:
    """`environ` (a child process's environment, deploy/serve_prod.py) or this process's."""
    raw = (os.environ if environ is None else environ).get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, schemes: set[str]) -> str | None:
    """A URL with one of `schemes` and a host (or a path, for sqlite), or None when unset."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    return env_url_value(name, raw, schemes)


def env_url_value(name: str, raw: str, schemes: set[str]) -> str:
    """`raw` checked as `env_url` checks a variable's value (`name` for the message)."""
    parts = urlsplit(raw.strip())
    if parts.scheme not in schemes:
        raise ConfigError(f"{name} must start with one of {sorted(schemes)}, got {parts.scheme!r}")
    if parts.scheme != "sqlite" and not parts.hostname and not parts.path.strip("/"):
        raise ConfigError(f"{name}={raw!r} names no host")
    return raw.strip()
