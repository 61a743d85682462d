"""Types of the compiled core (_core.c)."""

from collections.abc import Callable, Sequence

class Search:
    nodes: int
    def __init__(
        self,
        cards: Sequence[int],
        drawn: int,
        waste: int,
        reserve: Sequence[int],
        foundations: int,
        redeals_left: int,
        slots: int,
        auto_refill: bool,
        shuffled_redeal: bool,
        redeal_order: Callable[[int, int], Sequence[int]],
        max_nodes: int,
        max_seconds: float | None,
        memory_bytes: int,
        count_at: int = 0,
        cpu_clock: bool = False,
        keep_starts: int = 0,
    ) -> None: ...
    def round(self, cap1: int, cap0: int, shake: int, budget: int, share: float) -> str: ...
    def line(self) -> list[int]: ...
    def furthest(self) -> list[int]: ...
    def starts(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int, int, list[int]]]: ...
    def release(self) -> None: ...
    def stats(self) -> dict[str, int | bool]: ...

def mt_random(seed: int, count: int) -> list[float]: ...
