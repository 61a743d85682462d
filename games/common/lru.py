"""The one least-recently-used map of the service, safe across threads.

Positions, hints' winning lines and analyses are each kept in one: all three
are read from Daphne's worker threads, so every operation holds the lock.
`lock` is reentrant and public for a caller that needs several operations to
be one (the position cache probes a few keys and keeps an index beside it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    def __init__(self, size: int, on_evict: Callable[[K], None] | None = None) -> None:
        self.size = size
        self.lock = threading.RLock()
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._on_evict = on_evict

    def get(self, key: K) -> V | None:
        """The value, now the most recently used; None when absent."""
        with self.lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def peek(self, key: K) -> V | None:
        """The value without counting it as used."""
        with self.lock:
            return self._entries.get(key)

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                old_key, _ = self._entries.popitem(last=False)
                if self._on_evict is not None:
                    self._on_evict(old_key)

    def replace(self, key: K, value: V) -> None:
        """A new value for a present key, keeping its place in the order."""
        with self.lock:
            if key in self._entries:
                self._entries[key] = value

    def pop(self, key: K) -> V | None:
        with self.lock:
            return self._entries.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
