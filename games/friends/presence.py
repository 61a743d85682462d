"""Who is on the site now: each player's open site sockets, across tabs and processes.

A socket counts while its heartbeat is fresh: each one is a member of its
player's sorted set in Redis, scored by when it lapses, and refreshed every
`HEARTBEAT_S`. A socket closed properly leaves at once; one whose process was
killed lapses `SULTAN_PRESENCE_TTL_S` after its last beat, so no dead process
keeps a player online. Without REDIS_URL (one process, the in-memory channel
layer) the same sets live in this process's memory.

The per-player version of the site socket's messages (`version_next`) lives
beside them, for the same reason: every process must number one player's
messages in one sequence.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

import redis
from django.conf import settings


def _prefix() -> str:
    return f"{settings.REDIS_KEY_PREFIX}:site"


def ttl_s() -> float:
    return float(settings.SULTAN_PRESENCE_TTL_S)


def heartbeat_s() -> float:
    return ttl_s() / 3


class _LocalPresence:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sockets: dict[int, dict[str, float]] = {}
        self.versions: dict[int, int] = {}

    def _live(self, player_id: int, now: float) -> dict[str, float]:
        sockets = self.sockets.setdefault(player_id, {})
        for socket_id in [s for s, until in sockets.items() if until <= now]:
            del sockets[socket_id]
        return sockets

    def join(self, player_id: int, socket_id: str) -> bool:
        now = time.time()
        with self.lock:
            sockets = self._live(player_id, now)
            was = bool(sockets)
            sockets[socket_id] = now + ttl_s()
            return not was

    def leave(self, player_id: int, socket_id: str) -> bool:
        now = time.time()
        with self.lock:
            sockets = self._live(player_id, now)
            had = socket_id in sockets
            sockets.pop(socket_id, None)
            return had and not sockets

    def online(self, player_ids: Iterable[int]) -> set[int]:
        now = time.time()
        with self.lock:
            return {p for p in player_ids if self._live(p, now)}

    def version_next(self, player_id: int) -> int:
        with self.lock:
            self.versions[player_id] = self.versions.get(player_id, 0) + 1
            return self.versions[player_id]

    def version(self, player_id: int) -> int:
        with self.lock:
            return self.versions.get(player_id, 0)


class _RedisPresence:
    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    @staticmethod
    def _key(player_id: int) -> str:
        return f"{_prefix()}:presence:{player_id}"

    def join(self, player_id: int, socket_id: str) -> bool:
        now, key = time.time(), self._key(player_id)
        pipe = self.client.pipeline()
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zcard(key)
        pipe.zadd(key, {socket_id: now + ttl_s()})
        pipe.expire(key, int(ttl_s()) + 1)
        _, before, _, _ = pipe.execute()
        return int(before) == 0

    def leave(self, player_id: int, socket_id: str) -> bool:
        now, key = time.time(), self._key(player_id)
        pipe = self.client.pipeline()
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrem(key, socket_id)
        pipe.zcard(key)
        _, removed, after = pipe.execute()
        return bool(removed) and int(after) == 0

    def online(self, player_ids: Iterable[int]) -> set[int]:
        ids = list(player_ids)
        now = time.time()
        pipe = self.client.pipeline()
        for player_id in ids:
            pipe.zcount(self._key(player_id), now, "+inf")
        return {p for p, n in zip(ids, pipe.execute(), strict=True) if int(n) > 0}

    def version_next(self, player_id: int) -> int:
        return int(self.client.incr(f"{_prefix()}:version:{player_id}"))

    def version(self, player_id: int) -> int:
        return int(self.client.get(f"{_prefix()}:version:{player_id}") or 0)


_backend: _LocalPresence | _RedisPresence | None = None


def backend() -> _LocalPresence | _RedisPresence:
    global _backend
    if _backend is None:
        _backend = _RedisPresence(settings.REDIS_URL) if settings.REDIS_URL else _LocalPresence()
    return _backend


def presence_join(*, player_id: int, socket_id: str) -> bool:
    """Count a socket in (or refresh its heartbeat); True when the player just came online."""
    return backend().join(player_id, socket_id)


def presence_leave(*, player_id: int, socket_id: str) -> bool:
    """Count a socket out; True when it was the player's last one."""
    return backend().leave(player_id, socket_id)


def presence_online(*, player_ids: Iterable[int]) -> set[int]:
    return backend().online(player_ids)


def version_next(*, player_id: int) -> int:
    return backend().version_next(player_id)


def version_current(*, player_id: int) -> int:
    return backend().version(player_id)
