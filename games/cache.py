"""An in-process LRU of positions keyed by (game id, seq).

A committed log never changes, so the position after event `seq` of game `id`
never does either: entries need no invalidation, only eviction. Callers put
entries only once the rows they come from are committed (see
`games.selectors`), and every entry carries its deal so that a reused id (a
restored database, a rolled-back test) is never mistaken for another game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from games.positions import Position

DEFAULT_SIZE = 20_000
# How far below a requested seq to look for a cached position before
# replaying the whole log: another process may have appended a few events.
PROBE = 32


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    events_replayed: int = 0


class PositionCache:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[int, int], Position] = OrderedDict()
        self._latest: dict[int, int] = {}
        self._lock = threading.Lock()
        self.stats = CacheStats()

    def get(self, game_id: int, seq: int, seed: int, variant: str) -> Position | None:
        with self._lock:
            position = self._entries.get((game_id, seq))
            if position is None or not _same_deal(position, seed, variant):
                self.stats.misses += 1
                return None
            self._entries.move_to_end((game_id, seq))
            self.stats.hits += 1
            return position

    def nearest_below(
        self, game_id: int, seq: int, seed: int, variant: str
    ) -> tuple[int, Position] | None:
        """The cached position with the highest seq below `seq`, if one is close."""
        with self._lock:
            candidates = [self._latest.get(game_id, -1)]
            candidates.extend(range(seq - 1, max(seq - 1 - PROBE, 0), -1))
            for s in candidates:
                if 0 < s < seq:
                    position = self._entries.get((game_id, s))
                    if position is not None and _same_deal(position, seed, variant):
                        self._entries.move_to_end((game_id, s))
                        return s, position
            return None

    def put(self, game_id: int, seq: int, position: Position) -> None:
        with self._lock:
            self._entries[(game_id, seq)] = position
            self._entries.move_to_end((game_id, seq))
            if seq > self._latest.get(game_id, -1):
                self._latest[game_id] = seq
            while len(self._entries) > self._size:
                (old_game, old_seq), _ = self._entries.popitem(last=False)
                if self._latest.get(old_game) == old_seq:
                    del self._latest[old_game]

    def count_replayed(self, events: int) -> None:
        with self._lock:
            self.stats.events_replayed += events

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._latest.clear()
            self.stats = CacheStats()

    def __len__(self) -> int:
        return len(self._entries)


def _same_deal(position: Position, seed: int, variant: str) -> bool:
    return position.state.seed == seed and position.state.variant == variant


positions = PositionCache()
