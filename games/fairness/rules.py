"""The one rule under every ranking: a ranked result is a player's first sight of its deal.

`ranking_for` answers "may this player's result on this deal be ranked?" for
every path that starts a ranked attempt (a daily attempt, a challenge attempt,
a rated race's game) and for the log-in that carries results between
identities. A deal is seen by any game on it — a practice game, a race, an
attempt, however short: its first view shows the reserve — of the player or
of an identity linked to them (`IdentityLink`: a guest they logged in from, a
guest made in their browser after a log-out, an account they deleted there).

A deal is its seed: the shuffle depends on the seed alone (games.engine.rules),
so a deal seen in one variant is seen in every variant.

`deal_sealed` is the other half: while a secret deal is sealed (a race on it
has not ended, or keeps it secret past its end, as a daily attempt does until
the day is over for everyone) nobody may open it in any other way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from games.fairness.models import IdentityLink, UnrankedGame, UnrankedReason
from games.models import Game, Player, Race, RaceStatus

# Identities followed from one player, link by link; a browser that has been more
# than this many players is treated as having been them all (the search stops).
MAX_IDENTITIES: Final = 64


@dataclass(frozen=True, slots=True)
class Ranking:
    """The rule's answer. `seen_in`: the earlier game that showed the deal."""

    ranked: bool
    reason: str | None = None
    seen_in: int | None = None

    @property
    def notice(self) -> str:
        """What the player is told before they start, in words ('' when ranked)."""
        return ranking_notice(self.reason)


RANKED: Final = Ranking(True)


def ranking_notice(reason: str | None) -> str:
    if reason == UnrankedReason.SEEN:
        return gettext(
            "You have already seen this deal (in a game of yours, or of a guest you played "
            "as in this browser). You may play it, but this result is unranked: it counts "
            "in no leaderboard, streak, record or rating."
        )
    if reason == UnrankedReason.CARRIED:
        return gettext(
            "Played as a guest before logging in to an existing account: kept in your "
            "history, unranked."
        )
    return ""


def player_identities(*, player_id: int) -> set[int]:
    """The player and every player linked to them, directly or through others."""
    found, frontier = {player_id}, {player_id}
    while frontier and len(found) < MAX_IDENTITIES:
        pairs = IdentityLink.objects.filter(
            Q(earlier_id__in=frontier) | Q(later_id__in=frontier)
        ).values_list("earlier_id", "later_id")
        frontier = {pk for pair in pairs for pk in pair} - found
        found |= frontier
    return found


def ranking_for(*, player: Player, seed: int, before: Game | None = None) -> Ranking:
    """May `player`'s result on deal `seed` be ranked? Only if no game of theirs,
    nor of an identity linked to them, has shown it. `before`: judge a game
    already dealt, against the games dealt before it (ids grow with time)."""
    games = Game.objects.filter(player_id__in=player_identities(player_id=player.pk), seed=seed)
    if before is not None:
        games = games.filter(pk__lt=before.pk)
    seen = games.order_by("pk").values_list("pk", flat=True).first()
    if seen is None:
        return RANKED
    return Ranking(False, UnrankedReason.SEEN, seen)


def deal_sealed(*, seed: int, now: datetime | None = None, besides: int | None = None) -> bool:
    """Is a secret deal with this seed sealed: a race (other than `besides`) still
    plays it, or keeps it secret past its end (`Race.secret_until`)? An open
    deal's race does not seal it: its number was public from the start; nor does
    a challenge on a game of friends or of practice (its deal is its maker's to
    give; `race_deal_sealed` keeps the attempts' own replays closed), unless the
    challenge keeps a daily deal's seal (`secret_until`)."""
    races = Race.objects.filter(seed=seed, open_deal=False).filter(
        Q(ghost__isnull=True) | Q(secret_until__isnull=False)
    )
    if besides is not None:
        races = races.exclude(pk=besides)
    when = now or timezone.now()
    # The leading column of the partial indexes race_deal_not_finished and race_deal_sealed;
    # a race left running past its end (nobody closed it) has ended all the same.
    playing = races.exclude(status=RaceStatus.FINISHED)
    if playing.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=when)).exists():
        return True
    return races.filter(secret_until__isnull=False, secret_until__gt=when).exists()


def deal_sealed_message() -> str:
    return gettext(
        "This deal is being played for a ranking, and stays sealed until then: a daily "
        "deal until the day is over for everyone, a race until it ends."
    )


def unranked_mark() -> int:
    """The newest judgement: what a finished day's cached figures are keyed on, with voids."""
    return int(UnrankedGame.objects.aggregate(last=Max("pk"))["last"] or 0)
