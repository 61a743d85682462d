"""The production topology without containers: two Daphne processes behind nginx on loopback.

    make serve-prod                       # http://127.0.0.1:8080, Ctrl-C stops everything
    .venv/bin/python deploy/serve_prod.py --listen 8080 --ports 8001,8002

Against the running PostgreSQL and Redis (DATABASE_URL, REDIS_URL; defaults
below), with DEBUG off: collectstatic, migrate, the Daphne processes, then
nginx with deploy/nginx/nginx.conf rendered for loopback. A Daphne process that
dies is started again (compose's restart policy); nginx dying stops it all.

The fault scripts in bench/faults/ drive the same `Topology` as a library.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final
from urllib.parse import urlsplit, urlunsplit

from sultan_site.env import env_int

ROOT: Final = Path(__file__).resolve().parent.parent
NGINX_CONF: Final = ROOT / "deploy" / "nginx" / "nginx.conf"
DEFAULT_DATABASE_URL: Final = "postgres://postgres@127.0.0.1:5432/sultan"
DEFAULT_REDIS_URL: Final = "redis://127.0.0.1:6379/0"
START_TIMEOUT_S: Final = 60.0
# Each Daphne serves its Prometheus metrics on its own port plus this, on
# loopback only; nginx never proxies to it (games/metrics/exposition.py).
METRICS_PORT_OFFSET: Final = 1000
# Django's default for SULTAN_WS_OPEN_PER_ADDRESS (sultan_site/settings.py), and the
# most connections `limit_conn` takes (nginx refuses a larger number).
WS_OPEN_PER_ADDRESS_DEFAULT: Final = 50
NGINX_MAX_LIMIT_CONN: Final = 65535


class ServeError(RuntimeError):
    pass


def nginx_sockets_per_address(env: Mapping[str, str], processes: int) -> int:
    """nginx's cap on one address's sockets: each process's own (SULTAN_WS_OPEN_PER_ADDRESS,
    read as Django reads it) times the processes, so that a bench or a deployment that
    raises the setting raises both."""
    per_process = env_int("SULTAN_WS_OPEN_PER_ADDRESS", WS_OPEN_PER_ADDRESS_DEFAULT, env)
    if per_process < 1:
        raise ServeError(f"SULTAN_WS_OPEN_PER_ADDRESS={per_process} lets no socket in")
    return min(per_process * processes, NGINX_MAX_LIMIT_CONN)


def render_nginx_conf(
    template: str,
    *,
    listen: int,
    ports: Sequence[int],
    static_root: Path,
    run_dir: Path,
    sockets_per_address: int,
) -> str:
    """deploy/nginx/nginx.conf for loopback: only the parts marked `local:` change.

    Everything else (caching, gzip, the socket and proxy settings, the
    balancing) is the file compose runs, so a test of this rendering tests it.
    """
    begin, end = "    # local: upstreams begin\n", "    # local: upstreams end\n"
    if begin not in template or end not in template:
        raise ServeError("nginx.conf lost its 'local: upstreams' marks")
    head, rest = template.split(begin, 1)
    region, tail = rest.split(end, 1)
    upstream = "".join(_loopback_upstreams(region, ports))
    text = head + upstream + tail
    temp = "\n".join(
        f"    {kind}_temp_path {run_dir / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    replacements = {
        "    # local: runtime paths\n": f"{temp}\n",
        "        # local: listen\n        listen 80;\n": f"        listen 127.0.0.1:{listen};\n",
        "            # local: static root\n            alias /srv/static/;\n": (
            f"            alias {static_root}/;\n"
        ),
        "            # local: sockets per address\n"
        "            limit_conn sockets_per_address 100;\n": (
            f"            limit_conn sockets_per_address {sockets_per_address};\n"
        ),
    }
    for old, new in replacements.items():
        if old not in text:
            raise ServeError(f"nginx.conf lost the mark for: {old.strip()!r}")
        text = text.replace(old, new)
    return text


def _loopback_upstreams(region: str, ports: Sequence[int]) -> Iterator[str]:
    """The upstream blocks with one loopback server per port, parameters kept.

    Compose names its processes web1, web2 and finds them through Docker's
    DNS; here the `server web1:...` line stands for every port, the other
    `webN` lines and the DNS settings go.
    """
    server = re.compile(r"^(\s*)server web(\d+):\d+(?: resolve)?(.*);$")
    for line in region.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith(("resolver ", "zone ")):
            continue
        match = server.match(line.rstrip("\n"))
        if match is None:
            yield line
        elif match.group(2) == "1":
            indent, params = match.group(1), match.group(3)
            yield from (f"{indent}server 127.0.0.1:{port}{params};\n" for port in ports)


def production_env(base: dict[str, str], *, listen: int, static_root: Path) -> dict[str, str]:
    """The environment of the loopback topology: production settings, local services."""
    env = dict(base)
    env["DJANGO_SETTINGS_MODULE"] = "sultan_site.settings"
    env["DJANGO_DEBUG"] = "0"
    env.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    env.setdefault("REDIS_URL", DEFAULT_REDIS_URL)
    if not env.get("DJANGO_SECRET_KEY"):
        # Sessions do not outlive this run; set DJANGO_SECRET_KEY to keep them.
        env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
    env.setdefault(
        "DJANGO_CSRF_TRUSTED_ORIGINS", f"http://127.0.0.1:{listen},http://localhost:{listen}"
    )
    # Plain HTTP on loopback: a browser never sends a Secure cookie back over it.
    env.setdefault("DJANGO_SECURE_COOKIES", "0")
    env.setdefault("DJANGO_LOG_FORMAT", "json")
    env["DJANGO_STATIC_ROOT"] = str(static_root)
    return env


def ensure_postgres_database(url: str) -> None:
    """Create the database named by `url` when it does not exist yet."""
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        return
    import psycopg

    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def get_status(url: str, timeout: float = 5.0, host: str | None = None) -> int:
    """The HTTP status of a GET, or 0 when nothing answered."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


# Twisted listens with a backlog of 50. A burst of handshakes (a tournament seating a
# hundred races at once: bench/arena.py at 500 bots) overflowed it while the process
# was busy, the kernel dropped the connects, and nginx, which gives an upstream 2 s to
# accept, answered 502. The Dockerfile's CMD says the same.
LISTEN_BACKLOG: Final = 1024
# A socket's handshake waits this long for the application to accept it: Daphne's
# default, 5 s, reset the handshakes of a burst that a busy process reached later
# (nginx: 502; bench/arena.py at 500 bots). A browser then backs off and tries again,
# which costs the racer more than the wait.
HANDSHAKE_TIMEOUT_S: Final = 30


def daphne_endpoint(*, port: int, interface: str) -> str:
    """Daphne's listening endpoint (Twisted's description string), with our backlog."""
    return f"tcp:port={port}:interface={interface}:backlog={LISTEN_BACKLOG}"


@dataclass
class Topology:
    """Daphne processes on loopback behind one nginx; each can be killed and started again."""

    env: dict[str, str]
    ports: list[int]
    listen: int
    run_dir: Path
    log: IO[bytes] | None = None  # None: the children write to this terminal
    daphnes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    nginx: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listen}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.listen}"

    def daphne_url(self, port: int) -> str:
        return f"http://127.0.0.1:{port}"

    def prepare(self, *, collect: bool = True) -> None:
        ensure_postgres_database(self.env["DATABASE_URL"])
        commands = [["migrate", "--noinput", "-v0"]]
        if collect:
            commands.insert(0, ["collectstatic", "--noinput", "-v0"])
        for command in commands:
            subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=self.env,
                check=True,
                timeout=300,
            )

    def metrics_url(self, port: int) -> str:
        """The metrics of the Daphne process on `port`."""
        return f"http://127.0.0.1:{port + METRICS_PORT_OFFSET}/metrics"

    def start_daphne(self, port: int) -> subprocess.Popen[bytes]:
        metrics = {"SULTAN_METRICS_PORT": str(port + METRICS_PORT_OFFSET)}
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "--endpoint",
                daphne_endpoint(port=port, interface="127.0.0.1"),
                "--websocket_connect_timeout",
                str(HANDSHAKE_TIMEOUT_S),
                "--proxy-headers",
                "sultan_site.asgi:application",
            ],
            cwd=ROOT,
            env={**self.env, **metrics},
            stdout=self.log,
            stderr=subprocess.STDOUT if self.log else None,
        )
        self.daphnes[port] = process
        return process

    @property
    def host(self) -> str:
        """A host name Django serves (it refuses any other)."""
        hosts = [h.strip() for h in self.env["DJANGO_ALLOWED_HOSTS"].split(",") if h.strip()]
        return hosts[0].lstrip(".") if hosts and hosts[0] != "*" else "localhost"

    def wait_healthy(self, url: str, timeout_s: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if get_status(f"{url}/healthz", host=self.host) == 200:
                return
            for port, process in self.daphnes.items():
                if process.poll() is not None and url.endswith(f":{port}"):
                    raise ServeError(f"daphne on port {port} exited with {process.returncode}")
            time.sleep(0.1)
        raise ServeError(f"{url}/healthz did not answer 200 within {timeout_s:.0f} s")

    def kill_daphne(self, port: int, sig: int = signal.SIGKILL) -> None:
        process = self.daphnes[port]
        process.send_signal(sig)
        process.wait(10)

    def restart_daphne(self, port: int) -> None:
        self.start_daphne(port)
        self.wait_healthy(self.daphne_url(port))

    def start_nginx(self) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise ServeError("nginx is not installed (apt-get install nginx-light)")
        # Started as root, nginx runs its workers as `nobody`: they must reach
        # the run directory (nginx gives them the temp directories it creates).
        self.run_dir.chmod(0o755)
        conf = self.run_dir / "nginx.conf"
        conf.write_text(
            render_nginx_conf(
                NGINX_CONF.read_text(),
                listen=self.listen,
                ports=self.ports,
                static_root=Path(self.env["DJANGO_STATIC_ROOT"]),
                run_dir=self.run_dir,
                sockets_per_address=nginx_sockets_per_address(self.env, len(self.ports)),
            )
        )
        command = [
            nginx,
            "-p",
            str(self.run_dir),
            "-c",
            str(conf),
            "-e",
            "stderr",
            "-g",
            f"daemon off; pid {self.run_dir / 'nginx.pid'};",
        ]
        checked = subprocess.run([*command, "-t", "-q"], capture_output=True, timeout=30)
        if checked.returncode:
            raise ServeError(f"nginx -t: {checked.stderr.decode(errors='replace')}")
        self.nginx = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT if self.log else None
        )
        self.wait_healthy(self.url)

    def start(self) -> None:
        for port in self.ports:
            self.start_daphne(port)
        for port in self.ports:
            self.wait_healthy(self.daphne_url(port))
        self.start_nginx()

    def stop(self) -> None:
        children = [p for p in (self.nginx, *self.daphnes.values()) if p is not None]
        for process in children:
            if process.poll() is None:
                process.terminate()
        for process in children:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@contextmanager
def topology(
    base_env: dict[str, str],
    *,
    listen: int,
    ports: Sequence[int],
    log: IO[bytes] | None = None,
    static_root: Path | None = None,
    prepare: bool = True,
    collect: bool = True,
) -> Iterator[Topology]:
    """Start the topology; stop every process on the way out, whatever happened.
    collect=False: the static root is already collected from this tree."""
    with tempfile.TemporaryDirectory(prefix="sultan-prod-") as tmp:
        run_dir = Path(tmp)
        static = static_root or Path(base_env.get("DJANGO_STATIC_ROOT", ROOT / "staticfiles"))
        env = production_env(base_env, listen=listen, static_root=static)
        topo = Topology(env=env, ports=list(ports), listen=listen, run_dir=run_dir, log=log)
        try:
            if prepare:
                topo.prepare(collect=collect)
            topo.start()
            yield topo
        finally:
            topo.stop()


def supervise(topo: Topology) -> int:
    """Until Ctrl-C (or SIGTERM): restart a Daphne process that dies; stop if nginx dies."""
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        time.sleep(0.5)
        if topo.nginx is not None and topo.nginx.poll() is not None:
            print(f"nginx exited with {topo.nginx.returncode}; stopping", file=sys.stderr)
            return 1
        for port, process in list(topo.daphnes.items()):
            if process.poll() is not None and not stopping:
                print(f"daphne on port {port} exited ({process.returncode}); restarting")
                topo.start_daphne(port)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--listen", type=int, default=8080, help="nginx's port on 127.0.0.1")
    parser.add_argument("--ports", default="8001,8002", help="the Daphne processes' ports")
    parser.add_argument(
        "--collected",
        action="store_true",
        help="DJANGO_STATIC_ROOT is already collected from this tree: no collectstatic",
    )
    args = parser.parse_args(argv)
    ports = [int(p) for p in args.ports.split(",") if p.strip()]
    try:
        with topology(
            dict(os.environ), listen=args.listen, ports=ports, collect=not args.collected
        ) as topo:
            print(f"serving on {topo.url} (Daphne on {', '.join(map(str, ports))}); Ctrl-C stops")
            print("metrics: " + ", ".join(topo.metrics_url(port) for port in ports))
            return supervise(topo)
    except (ServeError, subprocess.CalledProcessError) as failure:
        print(f"serve-prod: {failure}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
