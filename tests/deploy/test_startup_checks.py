"""With DJANGO_DEBUG=0, what production cannot run without stops the start with the
reason and the fix (sultan_site/checks.py), rather than a 500 on every page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from sultan_site.checks import production_start_check
from tests.production import PRODUCTION, production_run

MANIFEST = {"staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}


def test_the_check_stops_on_a_missing_static_manifest_and_names_collectstatic(
    tmp_path: Path,
) -> None:
    result = production_run(["manage.py", "check"], **PRODUCTION, DJANGO_STATIC_ROOT=str(tmp_path))
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "(sultan.E001)" in said
    assert f"{tmp_path}/staticfiles.json is missing" in said
    assert "python manage.py collectstatic --noinput" in said


def test_a_server_process_stops_at_start_up_without_the_manifest(tmp_path: Path) -> None:
    # What Daphne does first: load the ASGI application.
    result = production_run(
        ["-c", "import sultan_site.asgi"], **PRODUCTION, DJANGO_STATIC_ROOT=str(tmp_path)
    )
    assert result.returncode != 0
    assert "Sultan cannot start:" in result.stderr
    assert "sultan.E001" in result.stderr
    assert "collectstatic" in result.stderr


def test_collectstatic_runs_without_a_manifest_and_then_the_check_passes(
    collected_static: str,
) -> None:
    # collected_static ran collectstatic into an empty STATIC_ROOT with DEBUG off.
    result = production_run(
        ["manage.py", "check"], **PRODUCTION, DJANGO_STATIC_ROOT=collected_static
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "key", ["dev-only-insecure-key-never-used-in-production", "change-me-to-a-long-random-string"]
)
def test_a_placeholder_secret_key_or_no_host_stops_production(key: str) -> None:
    with override_settings(DEBUG=False, SECRET_KEY=key, ALLOWED_HOSTS=[]):
        with pytest.raises(SystemCheckError) as stopped:
            call_command("check")
        with pytest.raises(Exception, match="Sultan cannot start") as at_start:
            production_start_check()
    for said in (str(stopped.value), str(at_start.value)):
        assert "sultan.E003" in said
        assert "DJANGO_SECRET_KEY" in said
        assert "sultan.E004" in said
        assert "DJANGO_ALLOWED_HOSTS" in said


def test_a_manifest_older_than_the_code_stops_production(tmp_path: Path) -> None:
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": {}, "version": "1.1"}))
    stale = override_settings(DEBUG=False, STATIC_ROOT=tmp_path, STORAGES=MANIFEST)
    with stale, pytest.raises(SystemCheckError) as stopped:
        call_command("check")
    assert "sultan.E002" in str(stopped.value)
    assert "not in the manifest" in str(stopped.value)


def test_development_is_not_asked_for_any_of_it(tmp_path: Path) -> None:
    with override_settings(DEBUG=True, STATIC_ROOT=tmp_path, STORAGES=MANIFEST, ALLOWED_HOSTS=[]):
        call_command("check")
        production_start_check()
