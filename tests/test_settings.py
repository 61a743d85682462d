"""Settings come from the environment; malformed values stop the start-up."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sultan_site.env import ConfigError, env_bool, env_int, env_list, env_url

ROOT = Path(__file__).resolve().parent.parent


def _load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    clean.update(env)
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "sultan_site.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_starts_with_nothing_configured():
    result = _load_settings()
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_it_refuses_production_without_a_secret_key():
    result = _load_settings(DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_it_starts_in_production_with_a_secret_key():
    result = _load_settings(DJANGO_DEBUG="off", DJANGO_SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_it_refuses_a_malformed_boolean():
    result = _load_settings(DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a boolean" in result.stderr


def test_it_refuses_a_database_url_with_an_unknown_scheme():
    result = _load_settings(DATABASE_URL="mysql://root@localhost/db")
    assert result.returncode != 0
    assert "DATABASE_URL must start with one of" in result.stderr


def test_it_refuses_a_bot_socket_url_that_is_not_a_websocket_address():
    result = _load_settings(SULTAN_BOT_SOCKET_URL="http://127.0.0.1:8000")
    assert result.returncode != 0
    assert "SULTAN_BOT_SOCKET_URL must start with one of ['ws', 'wss']" in result.stderr


def test_it_refuses_a_solver_niceness_outside_0_to_19():
    result = _load_settings(SULTAN_SOLVER_NICE="25")
    assert result.returncode != 0
    assert "SULTAN_SOLVER_NICE=25 is not a niceness from 0 to 19" in result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), (" yes ", True), ("on", True), ("0", False), ("off", False)],
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", default=not expected) is expected


def test_env_bool_uses_the_default_when_unset_or_empty(monkeypatch):
    monkeypatch.delenv("X_FLAG", raising=False)
    assert env_bool("X_FLAG", default=True) is True
    monkeypatch.setenv("X_FLAG", "")
    assert env_bool("X_FLAG", default=False) is False


def test_env_int_refuses_words(monkeypatch):
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ConfigError, match="X_NUM='ten' is not a whole number"):
        env_int("X_NUM", 1)
    monkeypatch.setenv("X_NUM", "12")
    assert env_int("X_NUM", 1) == 12


def test_env_list_splits_and_trims(monkeypatch):
    monkeypatch.setenv("X_LIST", " a.example , b.example,, ")
    assert env_list("X_LIST", []) == ["a.example", "b.example"]


def test_env_url_checks_scheme_and_host(monkeypatch):
    monkeypatch.setenv("X_URL", "redis://")
    with pytest.raises(ConfigError, match="names no host"):
        env_url("X_URL", {"redis"})
    monkeypatch.setenv("X_URL", "redis://127.0.0.1:6379/0")
    assert env_url("X_URL", {"redis"}) == "redis://127.0.0.1:6379/0"
    monkeypatch.delenv("X_URL")
    assert env_url("X_URL", {"redis"}) is None
