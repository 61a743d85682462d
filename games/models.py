"""The store: players, races, games as append-only logs of moves, and moderation.

A game is the replay of its moves through the engine. Its status, cards played,
finish time and last seq are a projection of that log, written only by
`games.store.services` in the transaction that appends to it; `voided` and `flagged`
are a projection of the moderation log, written only by `games.moderation.services`.
`manage.py verify_games` checks both projections against their logs.
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.engine import SEED_LIMIT, VARIANTS

VARIANT_CHOICES = [(v, v) for v in VARIANTS]
MAX_CARDS_PLAYED = 95
# Readable and unambiguous when read aloud or typed: no 0/o, 1/l/i.
# The one permission the admin and the replay viewer ask about (declared on ModerationAction).
MODERATE_PERMISSION = "games.moderate"
RACE_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


class AppendOnlyError(Exception):
    """A log row may be inserted, never changed or removed."""


class AppendOnlyQuerySet(models.QuerySet[Any]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.label} is append-only: no update")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.label} is append-only: no delete")


class AppendOnlyModel(models.Model):
    """Refuses updates and deletes from the ORM; triggers refuse them in SQL too."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{self._meta.label} is append-only: no update")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self._meta.label} is append-only: no delete")


def race_code_new() -> str:
    """Eight characters from 31 (about 2^40): short enough to read out, too many to guess."""
    chars = "".join(secrets.choice(RACE_CODE_ALPHABET) for _ in range(8))
    return f"{chars[:4]}-{chars[4:]}"


class Player(models.Model):
    """Someone who plays: an account's player, or a guest.

    A guest has no user; it is reached only through the Django session that
    created it (the session stores its id). The nickname is a display name,
    never unique and never a key: picking a guest's nickname gives nothing.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    nickname = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    banned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=~Q(nickname=""), name="player_nickname_not_empty"),
        ]

    def __str__(self) -> str:
        kind = "user" if self.user_id is not None else "guest"
        return f"{self.nickname} ({kind} #{self.pk})"

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class RaceStatus(models.TextChoices):
    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    RUNNING = "running"
    FINISHED = "finished"


class GameStatus(models.TextChoices):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    RESIGNED = "resigned"
    TIMEOUT = "timeout"  # the race's time ran out with the game still open


class ModerationKind(models.TextChoices):
    VOID = "void"
    REINSTATE = "reinstate"  # a voided result counts again
    FLAG = "flag"
    CLEAR_FLAG = "clear_flag"
    BAN = "ban"
    UNBAN = "unban"
    VERIFY = "verify"


# The acts that switch a game's projected flag, and to what: the latest of them
# for a field decides its value (games.moderation.services writes it, the replay check
# recomputes it).
GAME_SWITCHES: dict[str, tuple[str, bool]] = {
    ModerationKind.VOID: ("voided", True),
    ModerationKind.REINSTATE: ("voided", False),
    ModerationKind.FLAG: ("flagged", True),
    ModerationKind.CLEAR_FLAG: ("flagged", False),
}


class Race(models.Model):
    Status = RaceStatus

    code = models.CharField(max_length=9, unique=True, default=race_code_new)
    host = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hosted_races")
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField()
    open_deal = models.BooleanField(default=False)
    # The seed was drawn until the solver proved the deal winnable.
    winnable_deal = models.BooleanField(default=False)
    time_limit_s = models.PositiveIntegerField(default=900)
    seat_limit = models.PositiveSmallIntegerField(default=8)
    status = models.CharField(max_length=12, choices=RaceStatus.choices, default=RaceStatus.LOBBY)
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    version = models.BigIntegerField(default=0)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # The deal stays secret past the race's end until this moment: a daily deal's
    # race until the day is over for everyone (games.daily), and a challenge on it.
    secret_until = models.DateTimeField(null=True, blank=True)
    # A recorded game raced as a live opponent (games.challenges): its progress is
    # replayed on this race's clock, and it is ranked with the racers.
    ghost = models.ForeignKey(
        "Game", null=True, blank=True, on_delete=models.PROTECT, related_name="ghost_races"
    )

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(seat_limit__gte=2, seat_limit__lte=8), name="race_seat_limit_2_to_8"
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=0, seed__lt=SEED_LIMIT), name="race_seed_in_range"
            ),
            models.CheckConstraint(
                condition=Q(time_limit_s__gt=0), name="race_time_limit_positive"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RaceStatus.values), name="race_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(variant__in=list(VARIANTS)), name="race_variant_valid"
            ),
        ]
        indexes: ClassVar = [
            # Hints and analyses ask whether a deal is being raced (race_selectors).
            models.Index(
                fields=["seed", "variant"],
                condition=~Q(status=RaceStatus.FINISHED),
                name="race_deal_not_finished",
            ),
            # ... and whether a finished race keeps it sealed (a daily deal's day).
            models.Index(
                fields=["seed", "variant"],
                condition=Q(secret_until__isnull=False),
                name="race_deal_sealed",
            ),
        ]

    def __str__(self) -> str:
        return self.code


# A racer's seat in a race's lobby. Seats are not a log: a ready mark or a presence
# flag is current state, and no result depends on them (results come from the logs).
class RaceEntry(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="race_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    ready = models.BooleanField(default=False)
    # Open websockets of this racer on this race: the lobby shows who is here.
    connections = models.PositiveSmallIntegerField(default=0)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["race", "player"], name="race_entry_once_per_player"),
        ]
        ordering = ("joined_at", "pk")

    def __str__(self) -> str:
        return f"{self.player} in {self.race}"

    @property
    def seated(self) -> bool:
        return self.left_at is None


class Game(models.Model):
    Status = GameStatus

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games")
    race = models.ForeignKey(
        Race, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The projection of the move log (see the module docstring).
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.PLAYING)
    cards_played = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    # Milliseconds from started_at to when cards_played last changed: the ranking's
    # time (games.races.selectors), kept so a board of thousands sorts in the database.
    count_reached_ms = models.PositiveIntegerField(null=True, blank=True)
    # The projection of the moderation log.
    voided = models.BooleanField(default=False)
    flagged = models.BooleanField(default=False)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["race", "player"],
                condition=Q(race__isnull=False),
                name="game_one_per_player_per_race",
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=0, seed__lt=SEED_LIMIT), name="game_seed_in_range"
            ),
            models.CheckConstraint(
                condition=Q(variant__in=list(VARIANTS)), name="game_variant_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(cards_played__lte=MAX_CARDS_PLAYED), name="game_cards_played_max"
            ),
            # A game is finished exactly when it has a finish time.
            models.CheckConstraint(
                condition=(Q(status="playing") & Q(finished_at__isnull=True))
                | (~Q(status="playing") & Q(finished_at__isnull=False)),
                name="game_finished_at_iff_over",
            ),
        ]
        indexes: ClassVar = [
            models.Index(fields=["player", "-created_at"], name="game_player_recent"),
        ]

    def __str__(self) -> str:
        return f"game #{self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status != GameStatus.PLAYING


class Move(AppendOnlyModel):
    """One event of a game's log: a move, `undo` or `resign`."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField()
    token = models.CharField(max_length=8)
    accepted_at = models.DateTimeField()
    client_move_id = models.CharField(max_length=64)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_game_seq"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"], name="move_unique_game_client_move_id"
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="move_seq_positive"),
            models.CheckConstraint(
                condition=~Q(client_move_id=""), name="move_client_move_id_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seq} {self.token}"


class ModerationAction(AppendOnlyModel):
    """Who did what to which game or player, when and why: the moderation log.

    `moderator_name` keeps the name when the account is deleted (the foreign
    key then becomes null, the only change the database lets through).
    """

    Action = ModerationKind

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions",
    )
    moderator_name = models.CharField(max_length=150)
    action = models.CharField(max_length=12, choices=ModerationKind.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="moderation_actions"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="moderation_actions"
    )
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        permissions: ClassVar = [("moderate", "Can moderate games, races and players")]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(game__isnull=False) | Q(player__isnull=False),
                name="moderation_has_target",
            ),
            models.CheckConstraint(
                condition=Q(action__in=ModerationKind.values), name="moderation_action_valid"
            ),
        ]
        indexes: ClassVar = [models.Index(fields=["-created_at"], name="moderation_recent")]

    def __str__(self) -> str:
        target = f"game #{self.game_id}" if self.game_id else f"player #{self.player_id}"
        return f"{self.action} {target} by {self.moderator_name}"


# The daily deal's and the challenges' rows live in their rooms; importing them
# here registers them with the app.
from games.challenges.models import Challenge, ChallengeAttempt  # noqa: E402
from games.daily.models import DailyAttempt  # noqa: E402

__all__ = [
    "Challenge",
    "ChallengeAttempt",
    "DailyAttempt",
    "Game",
    "GameStatus",
    "ModerationAction",
    "ModerationKind",
    "Move",
    "Player",
    "Race",
    "RaceEntry",
    "RaceStatus",
]
