"""Per-player and per-address quotas, counted in fixed windows in Django's cache.

A window is SULTAN_QUOTA_WINDOW_S long (ten minutes); each kind of work has
a number per player and a (larger) number per address, since several
players may share one address. A refused request still counts: hammering
does not wait out the window faster. When the cache is away, quotas let
requests through (the solver's slot cap still bounds the CPU).
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.metrics.definitions import QUOTA_REFUSED, SOLVER_CALLS

log = logging.getLogger(__name__)


class WorkRefused(Refused):
    """Expensive work not done now: `status` is the HTTP status that says why,
    `retry_after` the seconds after which asking again may succeed."""

    status = 503

    def __init__(self, code: str, message: str, retry_after: int) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class QuotaExceeded(WorkRefused):
    """This player or address asked for this kind of work too often; try later."""

    status = 429


def _limits(kind: str) -> tuple[int, int]:
    player, address = settings.SULTAN_QUOTAS[kind]
    return int(player), int(address)


def _count(key: str, window_s: int) -> int:
    cache.add(key, 0, timeout=window_s + 5)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window_s + 5)
        return 1


def quota_take(
    *, kind: str, player_id: int | None, address: str, token_id: int | None = None
) -> None:
    """Count one request of `kind`; `QuotaExceeded` when the player's or the
    address's quota for this window is spent. A request made with an access
    token (games/api/) counts against the token's quota instead of the player's."""
    window_s = int(settings.SULTAN_QUOTA_WINDOW_S)
    now = time.time()
    window = int(now // window_s)
    retry_after = max(1, int((window + 1) * window_s - now))
    per_player, per_address = _limits(kind)
    scopes = [("address", address, per_address)]
    if token_id is not None:
        scopes.insert(0, ("token", str(token_id), per_player))
    elif player_id is not None:
        scopes.insert(0, ("player", str(player_id), per_player))
    for scope, ident, limit in scopes:
        try:
            used = _count(f"quota:{kind}:{scope}:{ident}:{window}", window_s)
        except Exception:  # each cache backend fails its own way
            log.warning("quota %s: the cache did not answer; letting it through", kind)
            return
        if used > limit:
            QUOTA_REFUSED.labels(kind, scope).inc()
            SOLVER_CALLS.labels(kind, "quota").inc()
            raise QuotaExceeded(
                "quota",
                _("too many requests of this kind: try again in %(seconds)s seconds")
                % {"seconds": retry_after},
                retry_after,
            )
