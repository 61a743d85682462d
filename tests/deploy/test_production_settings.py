"""Production settings: Django's deployment check passes but for documented choices,
and logs can be one JSON object per line."""

from __future__ import annotations

import json
import logging
import re

from sultan_site.logs import JsonFormatter
from tests.production import PRODUCTION, production_run

_run = production_run


def test_the_deployment_check_is_clean_with_the_production_settings(collected_static: str):
    # The documented choices (README.md, "Production": TLS and its redirect belong
    # to the terminator in front of nginx; HSTS for subdomains and preload are the
    # operator's promise) are silenced in settings.py only while they stand.
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **PRODUCTION,
        DJANGO_STATIC_ROOT=collected_static,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    found = set(re.findall(r"\((\w+\.[EW]\d+)\)", result.stdout + result.stderr))
    assert not found


def test_an_operator_who_turns_on_the_redirect_is_not_told_about_it():
    # SECURE_SSL_REDIRECT on: the warning it silenced has no reason to exist.
    code = "import django; django.setup(); from django.conf import settings as s;"
    code += "print(s.SILENCED_SYSTEM_CHECKS)"
    result = _run(["-c", code], **PRODUCTION, DJANGO_SECURE_SSL_REDIRECT="1")
    assert "security.W008" not in result.stdout
    assert "security.W005" in result.stdout


def test_production_pages_carry_a_strict_content_security_policy_and_the_other_headers():
    # /healthz renders no template: the site's pages need collectstatic's manifest in production.
    code = (
        "import django; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz', HTTP_HOST='sultan.example', secure=True);"
        "print(r.status_code);"
        "[print(k + ': ' + r.headers.get(k, '')) for k in ("
        "'Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options',"
        " 'X-Frame-Options', 'Strict-Transport-Security')]"
    )
    result = _run(["-c", code], **PRODUCTION)
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines()[1:])
    csp = lines["Content-Security-Policy"]
    assert "script-src 'self';" in csp
    assert "style-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    assert lines["Referrer-Policy"] == "same-origin"
    assert lines["X-Content-Type-Options"] == "nosniff"
    assert lines["X-Frame-Options"] == "DENY"
    assert lines["Strict-Transport-Security"].startswith("max-age=31536000")


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
