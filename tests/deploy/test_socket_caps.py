"""nginx's cap on one address's sockets comes from the setting Django caps each process
with (issue 36, point 9): `make serve-prod` and the benches render it
(deploy/serve_prod.py), the proxy image writes it at start (deploy/nginx/limits.sh),
so a bench that lifts the setting for its racers lifts nginx's too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from bench.faults.harness import ONE_ADDRESS_SOCKETS
from deploy.serve_prod import NGINX_CONF, ServeError, nginx_sockets_per_address, render_nginx_conf
from sultan_site.env import ConfigError

ROOT = Path(__file__).resolve().parents[2]
LIMITS_SH = ROOT / "deploy" / "nginx" / "limits.sh"
CAP = re.compile(r"limit_conn sockets_per_address (\d+);")


def _rendered(env: dict[str, str], ports: list[int], tmp_path: Path) -> str:
    return render_nginx_conf(
        NGINX_CONF.read_text(),
        listen=8080,
        ports=ports,
        static_root=tmp_path,
        run_dir=tmp_path,
        sockets_per_address=nginx_sockets_per_address(env, len(ports)),
    )


def test_nginx_caps_an_address_at_each_processes_cap_times_the_processes(tmp_path):
    assert CAP.findall(_rendered({}, [8001, 8002], tmp_path)) == [
        str(2 * settings.WS_OPEN_PER_ADDRESS)
    ]
    lifted = {"SULTAN_WS_OPEN_PER_ADDRESS": "300"}
    assert CAP.findall(_rendered(lifted, [8001, 8002, 8003], tmp_path)) == ["900"]
    # The template compose runs as is carries the defaults' figure for its two processes.
    assert CAP.findall(NGINX_CONF.read_text()) == [str(2 * settings.WS_OPEN_PER_ADDRESS)]


def test_nginx_cap_stays_within_what_nginx_accepts():
    assert nginx_sockets_per_address({"SULTAN_WS_OPEN_PER_ADDRESS": "100000"}, 2) == 65535


def test_a_malformed_or_empty_cap_stops_the_start():
    with pytest.raises(ConfigError, match="SULTAN_WS_OPEN_PER_ADDRESS"):
        nginx_sockets_per_address({"SULTAN_WS_OPEN_PER_ADDRESS": "lots"}, 2)
    with pytest.raises(ServeError, match="lets no socket in"):
        nginx_sockets_per_address({"SULTAN_WS_OPEN_PER_ADDRESS": "0"}, 2)


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_the_proxy_image_writes_the_cap_from_the_setting_at_start(tmp_path):
    conf = tmp_path / "nginx.conf"
    conf.write_text(NGINX_CONF.read_text())
    base = {"PATH": os.environ["PATH"], "NGINX_CONF": str(conf)}
    run = subprocess.run(
        ["sh", str(LIMITS_SH)],
        env={**base, "SULTAN_WS_OPEN_PER_ADDRESS": "120", "SULTAN_WEB_PROCESSES": "2"},
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert run.returncode == 0, run.stderr
    assert CAP.findall(conf.read_text()) == ["240"]
    bad = subprocess.run(
        ["sh", str(LIMITS_SH)],
        env={**base, "SULTAN_WS_OPEN_PER_ADDRESS": "12x"},
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert bad.returncode != 0
    assert "whole numbers" in bad.stderr
    assert CAP.findall(conf.read_text()) == ["240"]


def test_the_benches_lift_every_per_address_limit_for_504_racers_on_one_address():
    """bench/race_load.py --processes 2 --racers 504 (docs/performance.md) came from one
    address and met 429 at once: nginx's fixed 100 and Django's 50 per process."""
    read_by_django = set(
        re.findall(
            r'env_int\("(SULTAN_WS_\w+)"', (ROOT / "sultan_site" / "settings.py").read_text()
        )
    )
    assert set(ONE_ADDRESS_SOCKETS) <= read_by_django
    assert {"SULTAN_WS_OPEN_PER_ADDRESS", "SULTAN_WS_ADDRESS_CONNECT_BURST"} <= set(
        ONE_ADDRESS_SOCKETS
    )
    assert int(ONE_ADDRESS_SOCKETS["SULTAN_WS_OPEN_PER_ADDRESS"]) >= 504
    assert int(ONE_ADDRESS_SOCKETS["SULTAN_WS_ADDRESS_CONNECT_BURST"]) >= 504
    assert nginx_sockets_per_address(ONE_ADDRESS_SOCKETS, 2) >= 504
