"""A bot's pace: the minimum gap between its moves in a race, enforced by the server.

SULTAN_BOT_MIN_GAP_MS (300 ms by default) is the pace of the fastest person
docs/anticheat.md measured, sustained: about 190 moves a minute. A bot's move
sooner than that after its previous one is refused with `too_fast`, nothing
written; the client waits and sends the same move again (docs/protocol.md).
Moves the server appends itself (automatic moves) are not the bot's and do
not count; resigning is never too soon.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.positions import RESIGN
from games.models import Game, Move, Player
from games.store.append import MoveRejected


def bot_min_gap_ms() -> int:
    return int(settings.SULTAN_BOT_MIN_GAP_MS)


def bot_pace_refusal(
    *, player: Player, game_id: int, token: str, now: datetime | None = None
) -> MoveRejected | None:
    """`too_fast` when the bot's last move in this game was less than the gap ago; None
    for a person, a bot at its pace, or a bot giving up (resigning is never too soon)."""
    if not player.is_bot or token == RESIGN:
        return None
    last = (
        Move.objects.filter(game_id=game_id, automatic=False)
        .order_by("-seq")
        .values_list("accepted_at", flat=True)
        .first()
    )
    if last is None:
        return None
    gap_ms = ((now or timezone.now()) - last).total_seconds() * 1000
    minimum = bot_min_gap_ms()
    if gap_ms >= minimum:
        return None
    seq = Game.objects.filter(pk=game_id).values_list("last_seq", flat=True).first() or 0
    wait = max(1, int(minimum - gap_ms))
    return MoveRejected(
        "too_fast",
        _("a bot moves at most once every %(gap)d ms: send this move again in %(wait)d ms")
        % {"gap": minimum, "wait": wait},
        seq,
    )
