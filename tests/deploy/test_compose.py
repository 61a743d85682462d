"""docker-compose.yml: valid (checked by Debian's docker-compose, no engine needed), and
shaped as README.md describes: every service healthy-checked and restarted, migrations
before the web processes, two of those behind nginx, secrets only from .env."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = shutil.which("docker-compose")
pytestmark = pytest.mark.skipif(
    COMPOSE is None and not os.environ.get("CI"), reason="needs docker-compose"
)
LONG_RUNNING = ("db", "redis", "web1", "web2", "proxy", "prometheus")


def _compose(*args: str, env_file: str | None = ".env.example") -> subprocess.CompletedProcess[str]:
    assert COMPOSE is not None
    files = ["--project-directory", str(ROOT), "-f", str(ROOT / "docker-compose.yml")]
    options = ["--env-file", env_file] if env_file else []
    # --env-file replaces .env: a developer's own .env never leaks into the check.
    return subprocess.run(
        [COMPOSE, *files, *options, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "POSTGRES_"))},
    )


def _resolved() -> dict[str, Any]:
    result = _compose("config")
    assert result.returncode == 0, result.stderr
    # docker-compose is Python with PyYAML; its interpreter turns the YAML into JSON.
    assert COMPOSE is not None
    interpreter = Path(COMPOSE).read_text().splitlines()[0].removeprefix("#!").strip()
    converted = subprocess.run(
        [interpreter, "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
        input=result.stdout,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    config: dict[str, Any] = json.loads(converted.stdout)
    return config


def test_the_file_is_valid_with_the_example_environment():
    result = _compose("config", "-q")
    assert result.returncode == 0, result.stderr


def test_it_refuses_to_start_without_the_secrets(tmp_path):
    empty = tmp_path / "empty.env"
    empty.write_text("")
    result = _compose("config", "-q", env_file=str(empty))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr or "POSTGRES_PASSWORD" in result.stderr


def test_every_long_running_service_is_health_checked_and_restarted():
    services = _resolved()["services"]
    tools = {"backup", "restore"}  # only with `--profile tools` or `run`
    assert set(services) - tools == {
        "db",
        "redis",
        "migrate",
        "web1",
        "web2",
        "proxy",
        "prometheus",
    }
    for name in tools & set(services):
        assert services[name]["profiles"] == ["tools"], name
    for name in LONG_RUNNING:
        assert services[name]["restart"] == "unless-stopped", name
        assert services[name]["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL"), name
    assert services["migrate"]["restart"] == "no"


def test_the_web_processes_start_after_the_migrations_and_behind_the_proxy():
    services = _resolved()["services"]
    for name in ("web1", "web2"):
        needs = services[name]["depends_on"]
        assert needs["migrate"]["condition"] == "service_completed_successfully"
        assert needs["db"]["condition"] == "service_healthy"
        assert needs["redis"]["condition"] == "service_healthy"
        assert services[name]["environment"]["DJANGO_DEBUG"] == "0"
        assert services[name]["environment"]["DJANGO_LOG_FORMAT"] == "json"
        assert "ports" not in services[name]  # reachable only through nginx
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert services["proxy"]["depends_on"]["web1"]["condition"] == "service_healthy"
    nginx = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text()
    assert re.search(r"server web1:8000 .*max_fails", nginx)
    assert re.search(r"server web2:8000 .*max_fails", nginx)


def test_the_secrets_come_from_the_env_file():
    web = _resolved()["services"]["web1"]["environment"]
    example = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert web["DJANGO_SECRET_KEY"] == example["DJANGO_SECRET_KEY"]
    assert example["POSTGRES_PASSWORD"] in web["DATABASE_URL"]
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def test_the_web_image_runs_daphne_as_a_user_with_static_files_collected():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11-slim AS web" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    assert re.search(r"^USER sultan$", dockerfile, re.M)
    assert re.search(r'^CMD \["python", "-m", "daphne"', dockerfile, re.M)
    assert "COPY --from=web /app/staticfiles/ /srv/static/" in dockerfile


def test_prometheus_scrapes_each_web_process_on_its_metrics_port_with_the_alert_rules():
    services = _resolved()["services"]
    for name in ("web1", "web2"):
        assert services[name]["environment"]["SULTAN_METRICS_PORT"] == "9100"
    prometheus = services["prometheus"]
    assert any("prometheus.yml" in str(v) for v in prometheus["volumes"])
    published = [
        str(p.get("host_ip", "")) if isinstance(p, dict) else str(p) for p in prometheus["ports"]
    ]
    assert all("127.0.0.1" in p for p in published), published
    config = (ROOT / "deploy" / "prometheus" / "prometheus.yml").read_text()
    assert '"web1:9100", "web2:9100"' in config
    alerts = (ROOT / "deploy" / "prometheus" / "alerts.yml").read_text()
    for name in (
        "SultanWebProcessDown",
        "SultanErrorRate",
        "SultanAckP99High",
        "SultanPublisherStuck",
    ):
        assert f"alert: {name}" in alerts


def test_backups_run_the_same_script_as_make():
    services = _resolved()["services"]
    if "backup" not in services:
        pytest.skip("this docker-compose leaves profiled services out of `config`")
    assert services["backup"]["entrypoint"][-1] == "/usr/local/bin/pg_backup.sh"
    assert "deploy/pg_backup.sh backup" in (ROOT / "Makefile").read_text()


def test_the_web_image_speaks_every_language_of_the_site():
    """The compiled catalogues (.mo) are read from LOCALE_PATHS at run time."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^COPY locale/ locale/$", dockerfile, re.M)
    assert "!locale/" in (ROOT / ".dockerignore").read_text().split()


def test_the_image_builds_the_solvers_core_in_a_stage_with_a_compiler():
    dockerfile = (ROOT / "Dockerfile").read_text()
    build = dockerfile.split("FROM python:3.11-slim AS build", 1)[1].split("\nFROM ", 1)[0]
    assert "gcc" in build
    assert "build_ext --inplace" in build
    assert "COPY --from=build /src/games/ games/" in dockerfile


def test_everything_the_dockerfile_copies_reaches_the_build_context():
    # .dockerignore lets through only what it names: a file left out of it
    # breaks the image's build, not any test that reads the repository.
    allowed = {
        line[1:].rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    copied = [
        source.rstrip("/")
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ") and "--from=" not in line
        for source in line.split()[1:-1]
    ]
    assert copied
    for source in copied:
        assert source.split("/")[0] in allowed or source in allowed, source
