"""Anti-cheat verdicts on stored games, and the flags they raise.

games/moderation/anticheat.py judges times; this reads them from the logs and records a
`flag` moderation act (games/moderation/services.py) for each suspicious finished game,
with the evidence as its reason. `manage.py flag_suspicious` runs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet

from games.models import Game, GameStatus, ModerationAction, ModerationKind, Move
from games.moderation import services as moderation
from games.moderation.anticheat import MIN_GAPS, Verdict, judge
from games.store.selectors import game_moves, players_own

# The account the flags are recorded under: inactive, so nobody signs in as it.
ANTICHEAT_USERNAME: Final = "anticheat"
REASON_PREFIX: Final = "anticheat:"


def game_move_times(*, game: Game) -> list[datetime]:
    moves = players_own(game_moves(game=game))
    return list(moves.values_list("accepted_at", flat=True))


def game_verdict(*, game: Game) -> Verdict:
    return judge(game_move_times(game=game))


def verdicts(games: QuerySet[Game]) -> Iterator[tuple[int, Verdict]]:
    """(game id, verdict) for every game long enough to judge, in one pass over their logs.

    A bot's games are never judged: it is a program by its own say, held to the
    bots' pace by the server instead (games/bots/pace.py)."""
    judged = games.filter(last_seq__gt=MIN_GAPS, player__is_bot=False).values("pk")
    rows = (
        players_own(Move.objects.filter(game__in=judged))
        .order_by("game_id", "seq")
        .values_list("game_id", "accepted_at")
        .iterator(chunk_size=5000)
    )
    current: int | None = None
    times: list[datetime] = []
    for game_id, accepted_at in rows:
        if game_id != current:
            if current is not None:
                yield current, judge(times)
            current, times = game_id, []
        times.append(accepted_at)
    if current is not None:
        yield current, judge(times)


def suspicious_ids(games: QuerySet[Game]) -> list[int]:
    return [game_id for game_id, verdict in verdicts(games) if verdict.suspicious]


def anticheat_moderator() -> AbstractBaseUser:
    user, _ = get_user_model().objects.get_or_create(
        username=ANTICHEAT_USERNAME, defaults={"is_active": False}
    )
    if user.has_usable_password():
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@dataclass
class FlagReport:
    judged: int = 0
    flagged: list[int] = field(default_factory=list)
    already: int = 0  # flagged before, or flagged once and cleared by a moderator


def _never_again(games: Iterable[int]) -> set[int]:
    """Games a flag already covers: flagged now, or flagged once and cleared by a moderator
    (who has judged them: the same evidence must not flag them again)."""
    return set(
        ModerationAction.objects.filter(
            game_id__in=list(games), action__in=(ModerationKind.FLAG, ModerationKind.CLEAR_FLAG)
        ).values_list("game_id", flat=True)
    )


def flag_suspicious(
    *, moderator: AbstractBaseUser | None = None, dry_run: bool = False
) -> FlagReport:
    """Flag every suspicious finished game not flagged before. Running it twice flags nothing
    the second time."""
    finished = Game.objects.exclude(status=GameStatus.PLAYING).filter(voided=False)
    report = FlagReport()
    suspicious: dict[int, Verdict] = {}
    for game_id, verdict in verdicts(finished):
        report.judged += 1
        if verdict.suspicious:
            suspicious[game_id] = verdict
    covered = _never_again(suspicious) | set(
        Game.objects.filter(pk__in=list(suspicious), flagged=True).values_list("pk", flat=True)
    )
    report.already = len(covered)
    who = moderator or anticheat_moderator()
    for game in Game.objects.filter(pk__in=sorted(set(suspicious) - covered)).order_by("pk"):
        report.flagged.append(game.pk)
        if dry_run:
            continue
        verdict = suspicious[game.pk]
        evidence = verdict.evidence.lines() if verdict.evidence else []
        reason = f"{REASON_PREFIX} {verdict.summary()}\n" + "\n".join(evidence)
        try:
            moderation.game_flag(game=game, moderator=who, reason=reason)
        except moderation.ModerationRefused:
            # Flagged meanwhile by someone else: what the run wanted anyway.
            report.flagged.remove(game.pk)
            report.already += 1
    return report
