"""What the load benches read of the server beside their racers: CPU by part, memory.

`cpu_by_part` is the CPU each part of the production topology has used so far
(Daphne, the PostgreSQL backends of its database, nginx, Redis); `memory` is
each Daphne process's resident set and the Redis server's used memory, with the
keys of the run's own Redis database (`used_memory` is the whole server's, which
other runs on the machine share; the key count is this run's alone).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.racers import rss_mb  # noqa: E402
from deploy.serve_prod import Topology  # noqa: E402

_TICK = os.sysconf("SC_CLK_TCK")


def _processes() -> Iterator[tuple[int, str]]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield (
                    int(entry.name),
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(),
                )
            except OSError:
                continue


def cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def cpu_by_part(topo: Topology) -> dict[str, float]:
    """CPU seconds so far of each part of the server: Daphne, PostgreSQL's backends for its
    database, nginx, and the Redis server on REDIS_URL's port."""
    database = topo.env["DATABASE_URL"].rsplit("/", 1)[-1]
    redis_port = (topo.env.get("REDIS_URL") or "redis://x:0/").split(":")[-1].split("/")[0]
    nginx = topo.nginx.pid if topo.nginx else -1
    parts = {"Daphne": sum(cpu_s(p.pid) for p in topo.daphnes.values())}
    parts["PostgreSQL"] = parts["nginx"] = parts["Redis"] = 0.0
    for pid, cmdline in _processes():
        if cmdline.startswith("postgres:") and f" {database} " in cmdline:
            parts["PostgreSQL"] += cpu_s(pid)
        elif pid == nginx or (cmdline.startswith("nginx: worker") and _parent(pid) == nginx):
            parts["nginx"] += cpu_s(pid)
        elif cmdline.startswith("redis-server") and f":{redis_port}" in cmdline:
            parts["Redis"] += cpu_s(pid)
    return parts


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return -1


@dataclass
class Memory:
    daphne_mb: list[float]
    redis_mb: float | None
    redis_keys: int | None = None  # in the run's own database

    def line(self) -> str:
        processes = ", ".join(f"{mb:.0f}" for mb in self.daphne_mb)
        redis = "" if self.redis_mb is None else f"; Redis {self.redis_mb:.1f} MB"
        keys = "" if self.redis_keys is None else f" ({self.redis_keys} keys)"
        return f"Daphne {processes} MB{redis}{keys}"


def memory(topo: Topology) -> Memory:
    redis_mb = redis_keys = None
    url = topo.env.get("REDIS_URL")
    if url:
        import redis

        server = redis.Redis.from_url(url, socket_timeout=5)
        redis_mb = int(server.info("memory")["used_memory"]) / 2**20
        redis_keys = int(server.dbsize())
    return Memory([rss_mb(p.pid) for p in topo.daphnes.values()], redis_mb, redis_keys)
