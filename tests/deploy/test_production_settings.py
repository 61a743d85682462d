"""Production settings: Django's deployment check passes but for documented choices,
and logs can be one JSON object per line."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from sultan_site.logs import JsonFormatter

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k" * 20 + "-not-a-real-secret-but-long-and-varied-0123456789",
    "DJANGO_ALLOWED_HOSTS": "sultan.example",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://sultan.example",
}
# Deliberate, documented in README.md ("Production"): TLS and its redirect belong
# to the terminator in front of nginx; HSTS for subdomains and the preload list
# are a promise about the whole domain that the operator opts into.
ACCEPTED_WARNINGS = {"security.W005", "security.W008", "security.W021"}


def _run(code: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    return subprocess.run(
        [sys.executable, *code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "sultan_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deployment_check_finds_nothing_but_the_documented_choices():
    result = _run(["manage.py", "check", "--deploy"], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    found = set(re.findall(r"\((\w+\.[EW]\d+)\)", result.stdout + result.stderr))
    assert found <= ACCEPTED_WARNINGS, found


def test_production_turns_on_hsts_and_secure_cookies():
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_PROXY_SSL_HEADER, s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS)"
    )
    result = _run(["-c", code], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == ["31536000", "True", "True"]
    assert "'sultan.example'" in result.stdout
    assert "'https://sultan.example'" in result.stdout


def test_json_logs_are_one_object_per_line():
    code = (
        "import django, logging; django.setup();"
        "log = logging.getLogger('sultan.test');"
        "log.warning('said \"hi\"\\nand left', extra={'race': 'k7m2'});"
        "\ntry:\n    1/0\nexcept ZeroDivisionError:\n    log.exception('boom')"
    )
    result = _run(["-c", code], **PRODUCTION, DJANGO_LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert lines[0]["message"] == 'said "hi"\nand left'
    assert lines[0]["level"] == "WARNING"
    assert lines[0]["logger"] == "sultan.test"
    assert lines[0]["race"] == "k7m2"
    assert "ZeroDivisionError" in lines[1]["exc_info"]


def test_an_unknown_log_format_stops_the_start_up():
    result = _run(["-c", "import django; django.setup()"], DJANGO_LOG_FORMAT="xml")
    assert result.returncode != 0
    assert "DJANGO_LOG_FORMAT='xml' is not one of plain, json" in result.stderr


def test_an_extra_json_cannot_hold_is_written_as_its_repr():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "m %s", ("a",), None)
    record.peer = object()
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "m a"
    assert entry["peer"].startswith("<object object")
