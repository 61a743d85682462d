"""The friends' board beside a daily deal's whole board (games/friends/selectors.py)."""

from __future__ import annotations

from typing import Any

from django import template

from games.accounts.selectors import player_for_request
from games.friends.selectors import friends_daily, lobby_invitable

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


@register.inclusion_tag("race_invite.html", takes_context=True)
def friends_lobby_invite(context: Any) -> dict[str, Any]:
    """A racer's friends not seated yet, to invite to this lobby."""
    player, race = context.get("player"), context["race"]
    if not context.get("in_lobby") or context.get("role") != "racer" or player is None:
        return {"friends": None}
    if player.is_guest:
        return {"friends": None}
    return {"friends": lobby_invitable(player=player, race=race), "race": race}
