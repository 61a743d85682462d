"""The metrics are served on a port of their own per web process, never through
the public port or nginx, and carry the service's own figures."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client import REGISTRY

from tests.servers import daphne, database_env, free_port

ROOT = Path(__file__).resolve().parents[2]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_web_process_serves_its_metrics_on_its_own_port_and_not_on_the_public_one():
    metrics_port = free_port()
    with database_env("metrics") as env:
        env = {**env, "SULTAN_METRICS_PORT": str(metrics_port)}
        with daphne(env) as server:
            assert _get(f"{server.url}/")[0] == 200
            status, public = _get(f"{server.url}/metrics")
            assert status == 404
            assert "# TYPE" not in public
            status, text = _get(f"http://127.0.0.1:{metrics_port}/metrics")
    assert status == 200
    assert 'sultan_http_request_seconds_count{method="GET",status="2xx",view="games:home"}' in text
    assert 'sultan_races{state="lobby"} 0.0' in text
    for name in (
        "sultan_moves_total",
        "sultan_move_ack_seconds",
        "sultan_sockets_open",
        "sultan_broadcasts_total",
        "sultan_progress_delivery_seconds",
        "sultan_snapshots_total",
        "sultan_publisher_lag_seconds",
        "sultan_publisher_backlog_age_seconds",
        "sultan_solver_calls_total",
        "sultan_solver_seconds",
        "process_cpu_seconds_total",
    ):
        assert f"# TYPE {name.removesuffix('_total')}" in text, name


def test_nginx_never_routes_metrics_to_the_public():
    conf = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text()
    block = conf.split("location = /metrics {", 1)[1].split("}", 1)[0]
    assert "return 404;" in block
    assert "9100" not in conf  # no upstream on the metrics port


@pytest.mark.django_db
def test_request_latency_is_labelled_by_the_view_not_the_path(client: Client):
    labels = {"view": "games:replay", "method": "GET", "status": "4xx"}
    before = REGISTRY.get_sample_value("sultan_http_request_seconds_count", labels) or 0
    assert client.get("/games/987654/replay/").status_code == 404
    after = REGISTRY.get_sample_value("sultan_http_request_seconds_count", labels)
    assert after == before + 1
    unmatched = {"view": "unmatched", "method": "GET", "status": "4xx"}
    assert client.get("/no-such-page-alice").status_code == 404
    assert REGISTRY.get_sample_value("sultan_http_request_seconds_count", unmatched)
