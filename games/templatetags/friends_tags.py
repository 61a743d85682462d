"""The friends' board beside a daily deal's whole board (games/friends/selectors.py)."""

from __future__ import annotations

from typing import Any

from django import template

from games.accounts.selectors import player_for_request
from games.friends.selectors import friends_daily

register = template.Library()


@register.inclusion_tag("daily_friends.html", takes_context=True)
def friends_daily_board(context: Any) -> dict[str, Any]:
    """While the day runs: the friends' results as the board shows them; once it is
    over: their ranking among themselves, with replays."""
    player = player_for_request(context["request"])
    if player is None or player.is_guest:
        return {"rows": None}
    rows = friends_daily(player=player, day=context["day"], variant=context["variant"])
    return {
        "rows": list(enumerate(rows, start=1)) if len(rows) > 1 else None,
        "day_over": context["day_over"],
        "you": player.pk,
        "replay_label": context.get("replay_label"),
    }
