"""Every metric of the service. Names follow Prometheus' conventions: a unit
suffix (`_seconds`), `_total` for counters; docs/performance.md lists them.
"""

from __future__ import annotations

from typing import Final

from prometheus_client import Counter, Gauge, Histogram

# Socket answers are milliseconds on loopback and seconds when something is
# wrong: the buckets cover both ends (ack p99 is alerted at 0.5 s).
# fmt: off
LATENCY_BUCKETS: Final = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)
# fmt: on


def latency(name: str, documentation: str, labels: tuple[str, ...] = ()) -> Histogram:
    """A histogram of seconds on the latency buckets: one scale for every wait we time."""
    return Histogram(name, documentation, labels, buckets=LATENCY_BUCKETS)


# A solve is bounded by its budget (a hint 2 s, an analysis 6 s, a winnable deal 12 s).
SOLVER_BUCKETS: Final = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0)

# Moves -------------------------------------------------------------------

MOVES: Final = Counter(
    "sultan_moves",
    "Moves (and undo, resign) answered, by where they came from and how: "
    "outcome accepted or refused, code the refusal's code (ok when accepted).",
    ["source", "outcome", "code"],
)
MOVE_ACK_SECONDS: Final = latency(
    "sultan_move_ack_seconds",
    "From a race socket's move being taken up to its ack or reject being sent "
    "(the database round trip included).",
)

# Race sockets ------------------------------------------------------------

SOCKETS_OPEN: Final = Gauge("sultan_sockets_open", "Race sockets accepted and not yet closed.")
BROADCASTS: Final = Counter(
    "sultan_broadcasts",
    "Messages the publisher sent to a race's group, by kind (one per message, "
    "whatever the number of sockets; presence included).",
    ["kind"],
)
PROGRESS_DELIVERY_SECONDS: Final = latency(
    "sultan_progress_delivery_seconds",
    "From the publisher handing a progress to the channel layer to a socket of the "
    "race sending the frame that carries it (per receiving socket, the coalescing "
    "wait included; wall clocks of the processes).",
)
SLOW_READERS: Final = Counter(
    "sultan_slow_readers",
    "Sockets whose client is behind (races/backlog.py): `held`, a progress frame kept "
    "back, coalesced, while the bytes unsent passed WS_SHED_BYTES; `closed`, a socket "
    "closed with 4012 (stalled past WS_STALL_CLOSE_BYTES or WS_STALL_CLOSE_S).",
    ["what"],
)
SNAPSHOTS: Final = Counter("sultan_snapshots", "Race snapshots built (each one is a few queries).")

# The publisher of race announcements (the transactional outbox,
# games/races/publisher.py): its live sends and its sweep both feed them.
PUBLISHER_LAG_SECONDS: Final = latency(
    "sultan_publisher_lag_seconds",
    "From an announcement's commit to the publisher handing it to the channel layer.",
)
PUBLISHER_BACKLOG_AGE_SECONDS: Final = Gauge(
    "sultan_publisher_backlog_age_seconds",
    "Age of the oldest committed announcement not yet published (0 when none waits).",
)

# Solver work ------------------------------------------------------------

SOLVER_CALLS: Final = Counter(
    "sultan_solver_calls",
    "Solver work asked for, by kind (hint, analysis, winnable) and outcome "
    "(done, busy: no slot free, quota: the visitor's quota was spent).",
    ["kind", "outcome"],
)
SOLVER_SECONDS: Final = Histogram(
    "sultan_solver_seconds",
    "Time spent in the solver per piece of work, by kind.",
    ["kind"],
    buckets=SOLVER_BUCKETS,
)
SOLVER_BUSY_SLOTS: Final = Gauge(
    "sultan_solver_slots_busy", "Solver slots of this process in use (SULTAN_SOLVER_SLOTS)."
)
QUOTA_REFUSED: Final = Counter(
    "sultan_quota_refused",
    "Requests refused by a quota, by kind of work and by whose quota (player or address).",
    ["kind", "scope"],
)

# HTTP --------------------------------------------------------------------

REQUEST_SECONDS: Final = latency(
    "sultan_http_request_seconds",
    "HTTP requests by view (its route name), method and status class (2xx, 4xx, 5xx...).",
    ("view", "method", "status"),
)
