"""What the invitation tests share: sending one, and reading which lobbies a host has open."""

from __future__ import annotations

from typing import Any

from games.friends.models import Invitation
from games.friends.services import invitation_send
from games.models import Player, Race, RaceStatus

ADDRESS = "127.0.0.1"


def invite(inviter: Player, *invitees: Player, **options: Any) -> list[Invitation]:
    return invitation_send(inviter=inviter, invitees=list(invitees), address=ADDRESS, **options)


def open_lobbies(host: Player) -> list[Race]:
    """The lobbies `host` hosts that have not started or closed, oldest first."""
    return list(Race.objects.filter(host=host, status=RaceStatus.LOBBY).order_by("created_at"))
