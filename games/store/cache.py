"""An in-process LRU of positions keyed by (game id, seq).

A committed log never changes, so the position after event `seq` of game `id`
never does either: entries need no invalidation, only eviction. Each entry
is stamped with the identity of its last log row (primary key and server
time); readers check the stamp against the row, so an entry made in a
transaction that rolled back, or for a reused id, is never taken for the
truth. Entries without a stamp are allowed only once their rows are committed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.common.lru import LRU
from games.engine.positions import Position

DEFAULT_SIZE = 20_000
# How far below a requested seq to look for a cached position before
# replaying the whole log: another process may have appended a few events.
PROBE = 32

Stamp = tuple[int, datetime]


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    position: Position
    stamp: Stamp | None


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    events_replayed: int = 0


class PositionCache:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._entries: LRU[tuple[int, int], Entry] = LRU(size, on_evict=self._evicted)
        # Per game, the highest seq held: the first place to look for a position.
        self._latest: dict[int, int] = {}
        self.stats = CacheStats()

    def _evicted(self, key: tuple[int, int]) -> None:
        game_id, seq = key
        if self._latest.get(game_id) == seq:
            del self._latest[game_id]

    def best(self, game_id: int, seq: int, seed: int, variant: str) -> Entry | None:
        """The entry for `seq`, else the closest one below it (not too far), else None."""
        with self._entries.lock:
            candidates = [seq, self._latest.get(game_id, -1)]
            candidates.extend(range(seq - 1, max(seq - 1 - PROBE, 0), -1))
            for s in candidates:
                if 0 < s <= seq:
                    entry = self._entries.peek((game_id, s))
                    if entry is not None and _same_deal(entry.position, seed, variant):
                        self._entries.get((game_id, s))
                        if s == seq:
                            self.stats.hits += 1
                        else:
                            self.stats.misses += 1
                        return entry
            self.stats.misses += 1
            return None

    def put(self, game_id: int, seq: int, position: Position, stamp: Stamp | None = None) -> None:
        with self._entries.lock:
            self._entries.put((game_id, seq), Entry(seq, position, stamp))
            if seq > self._latest.get(game_id, -1):
                self._latest[game_id] = seq

    def confirm(self, game_id: int, seq: int) -> None:
        """The entry's rows are committed: it needs no stamp any more."""
        with self._entries.lock:
            entry = self._entries.peek((game_id, seq))
            if entry is not None and entry.stamp is not None:
                self._entries.replace((game_id, seq), Entry(seq, entry.position, None))

    def discard(self, game_id: int, seq: int) -> None:
        with self._entries.lock:
            self._entries.pop((game_id, seq))
            self._evicted((game_id, seq))

    def count_replayed(self, events: int) -> None:
        with self._entries.lock:
            self.stats.events_replayed += events

    def clear(self) -> None:
        with self._entries.lock:
            self._entries.clear()
            self._latest.clear()
            self.stats = CacheStats()

    def __len__(self) -> int:
        return len(self._entries)


def _same_deal(position: Position, seed: int, variant: str) -> bool:
    return position.state.seed == seed and position.state.variant == variant


positions = PositionCache()
