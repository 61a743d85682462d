"""The store: players, races, games as append-only logs of moves, and moderation.

A game is the replay of its moves through the engine. Its status, cards played,
finish time and last seq are a projection of that log, written only by
`games.store.services` in the transaction that appends to it; `voided` and `flagged`
are a projection of the moderation log, written only by `games.moderation.services`.
`manage.py verify_games` checks both projections against their logs.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, ClassVar, Final, NoReturn, TypeVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.utils.functional import _StrPromise

from games.engine import SEED_LIMIT, VARIANTS
from games.i18n.labels import VARIANT_LABELS

# Stored as the code; shown by its name, in the reader's language.
VARIANT_CHOICES = [(v, VARIANT_LABELS[v]) for v in VARIANTS]
MAX_CARDS_PLAYED = 95
# The one permission the admin and the replay viewer ask about (declared on ModerationAction).
MODERATE_PERMISSION = "games.moderate"
# Readable and unambiguous when read aloud or typed: no 0/o, 1/l/i.
RACE_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
# What a deleted account's games show for its name (docs/store.md, "Deleting an account").
DELETED_NICKNAME = "deleted player"
M = TypeVar("M", bound=models.Model)


def _optional_link(
    field: Any, to: Any, on_delete: Any, verbose_name: _StrPromise, related_name: str
) -> Any:
    """A link a row may lack: null in the table, blank in the admin's forms. Each use
    declares the field's type, which the stubs cannot infer through this call."""
    return field(
        to,
        on_delete,
        related_name=related_name,
        verbose_name=verbose_name,
        null=True,
        blank=True,
    )


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

    user: models.OneToOneField[User | None, User | None] = _optional_link(
        models.OneToOneField, settings.AUTH_USER_MODEL, models.SET_NULL, _("user"), "player"
    )
    nickname = models.CharField(_("nickname"), max_length=40)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    # The account was deleted (games.accounts.services.account_delete): the
    # player row stays for its games, with no user and DELETED_NICKNAME.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # A program's account, marked once through its own token and for good
    # (games.bots.rules): shown as BOT wherever its name shows, rated among bots.
    is_bot = models.BooleanField(_("bot"), default=False)
    # False for a guest still under the name the site gave it ("Guest"): asked for
    # one before the name is first shown to others (games.accounts.services).
    nickname_chosen = models.BooleanField(_("nickname chosen"), default=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints: ClassVar = [
            models.CheckConstraint(condition=~Q(nickname=""), name="player_nickname_not_empty"),
            models.CheckConstraint(
                condition=Q(deleted_at__isnull=True)
                | (Q(user__isnull=True) & Q(nickname=DELETED_NICKNAME)),
                name="player_deleted_has_no_name",
            ),
            # Only an account becomes a bot: its token is how it does.
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=False) | Q(deleted_at__isnull=False),
                name="player_bot_is_an_account",
            ),
            # An account plays under its username: a name it chose.
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(nickname_chosen=True),
                name="player_account_name_chosen",
            ),
        ]

    def __str__(self) -> str:
        if self.deleted_at is not None:
            return _("%(nickname)s (deleted #%(id)s)") % {"nickname": self.nickname, "id": self.pk}
        if self.user_id is not None:
            return _("%(nickname)s (user #%(id)s)") % {"nickname": self.nickname, "id": self.pk}
        return _("%(nickname)s (guest #%(id)s)") % {"nickname": self.nickname, "id": self.pk}

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class RaceStatus(models.TextChoices):
    LOBBY = "lobby", _("Lobby")
    COUNTDOWN = "countdown", _("Countdown")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class GameStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    WON = "won", _("Won")
    LOST = "lost", _("Lost")
    RESIGNED = "resigned", _("Resigned")
    TIMEOUT = "timeout", _("Timeout")  # the race's time ran out with the game still open


class ModerationKind(models.TextChoices):
    VOID = "void", _("Void")
    REINSTATE = "reinstate", _("Reinstate")  # a voided result counts again
    FLAG = "flag", _("Flag")
    CLEAR_FLAG = "clear_flag", _("Clear flag")
    BAN = "ban", _("Ban")
    UNBAN = "unban", _("Unban")
    VERIFY = "verify", _("Verify")


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

    code = models.CharField(_("code"), max_length=9, unique=True, default=race_code_new)
    host = models.ForeignKey(
        Player, verbose_name=_("host"), on_delete=models.PROTECT, related_name="hosted_races"
    )
    variant = models.CharField(_("variant"), max_length=16, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField(_("deal"))
    open_deal = models.BooleanField(_("open deal"), default=False)
    # The seed was drawn until the solver proved the deal winnable.
    winnable_deal = models.BooleanField(_("winnable deal"), default=False)
    # The host's choice at creation: the server plays every racer's safe moves.
    automatic_moves = models.BooleanField(_("automatic moves"), default=False)
    time_limit_s = models.PositiveIntegerField(_("time limit (s)"), default=900)
    seat_limit = models.PositiveSmallIntegerField(_("seat limit"), default=8)
    status = models.CharField(
        _("status"), max_length=12, choices=RaceStatus.choices, default=RaceStatus.LOBBY
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    version = models.BigIntegerField(_("version"), default=0)
    rematch_of: models.OneToOneField[Race | None, Race | None] = _optional_link(
        models.OneToOneField, "self", models.SET_NULL, _("rematch of"), "rematch"
    )
    # Anyone may be seated by "Race now" (games.races.matchmaking); always rated.
    public = models.BooleanField(default=False)
    # Its results move ratings (games.ratings): public races, and friends' races so marked.
    rated = models.BooleanField(default=False)
    # When the race closed; ratings are replayed in this order (games.ratings).
    finished_at = models.DateTimeField(null=True, blank=True)
    # The deal stays secret past the race's end until this moment: a daily deal's
    # race until the day is over for everyone (games.daily), and a challenge on it.
    secret_until = models.DateTimeField(_("secret until"), null=True, blank=True)
    # A recorded game raced as a live opponent (games.challenges): its progress is
    # replayed on this race's clock, and it is ranked with the racers.
    ghost: models.ForeignKey[Game | None, Game | None] = _optional_link(
        models.ForeignKey, "Game", models.PROTECT, _("recorded game"), "ghost_races"
    )

    class Meta:
        verbose_name = _("race")
        verbose_name_plural = _("races")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(seat_limit__gte=2, seat_limit__lte=8), name="race_seat_limit_2_to_8"
            ),
            models.CheckConstraint(
                condition=Q(rated=True) | Q(public=False), name="race_public_rated"
            ),
            # An open deal's number is known beforehand: anyone could study it for a rating.
            models.CheckConstraint(
                condition=Q(rated=False) | Q(open_deal=False), name="race_rated_secret_deal"
            ),
            models.CheckConstraint(
                condition=Q(status=RaceStatus.FINISHED, finished_at__isnull=False)
                | (~Q(status=RaceStatus.FINISHED) & Q(finished_at__isnull=True)),
                name="race_finished_at_iff_finished",
            ),
            # "Race now" seats two clicks at once in one race: at most one public lobby
            # per variant and time limit, so the second insert fails and joins the first.
            models.UniqueConstraint(
                fields=["variant", "time_limit_s"],
                condition=Q(public=True, status=RaceStatus.LOBBY),
                name="race_one_public_lobby_per_kind",
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
            # The public races list and "Race now" look for these.
            models.Index(
                fields=["variant", "time_limit_s"],
                condition=Q(public=True) & ~Q(status=RaceStatus.FINISHED),
                name="race_public_live",
            ),
            # Ratings replay a variant's rated races in the order they finished.
            models.Index(
                fields=["variant", "finished_at", "id"],
                condition=Q(rated=True, status=RaceStatus.FINISHED),
                name="race_rated_finished",
            ),
        ]

    def __str__(self) -> str:
        return self.code


# Announcements not yet handed to the channel layer: the condition of the partial
# index the publisher's queries use, so it is the one they filter by.
UNPUBLISHED: Final = Q(published_at__isnull=True)


class RaceEvent(models.Model):
    """A change to a race as its sockets are told of it: the race's outbox and recent history.

    Written in the transaction that made the change, with the version it took,
    so a change is announced because it was committed, not because a socket
    was still there to announce it (games/races/outbox.py). `payload` is the
    message exactly as sent; announcing it again sends the same bytes.
    `published_at` is set once the channel layer took it; rows older than the
    history's span are deleted (docs/protocol.md, "Outbox and history").
    """

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="events")
    version = models.BigIntegerField()
    kind = models.CharField(max_length=12)
    payload = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["race", "version"], name="race_event_once_per_version"),
        ]
        indexes: ClassVar = [
            # The publisher's sweep looks only for what is still unannounced.
            models.Index(
                fields=["created_at"], condition=UNPUBLISHED, name="race_event_unpublished"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.race_id} v{self.version} {self.kind}"


# A racer's seat in a race's lobby. Seats are not a log: a ready mark or a presence
# flag is current state, and no result depends on them (results come from the logs).
class RaceEntry(models.Model):
    race = models.ForeignKey(
        Race, verbose_name=_("race"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="race_entries"
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    ready = models.BooleanField(_("ready"), default=False)
    # Open websockets of this racer on this race: the lobby shows who is here.
    connections = models.PositiveSmallIntegerField(_("connections"), default=0)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("race seat")
        verbose_name_plural = _("race seats")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["race", "player"], name="race_entry_once_per_player"),
        ]
        ordering = ("joined_at", "pk")

    def __str__(self) -> str:
        return _("%(player)s in %(race)s") % {"player": self.player, "race": self.race}

    @property
    def seated(self) -> bool:
        return self.left_at is None


class Game(models.Model):
    Status = GameStatus

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="games"
    )
    race: models.ForeignKey[Race | None, Race | None] = _optional_link(
        models.ForeignKey, Race, models.PROTECT, _("race"), "games"
    )
    variant = models.CharField(_("variant"), max_length=16, choices=VARIANT_CHOICES)
    seed = models.BigIntegerField(_("deal"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # The projection of the move log (see the module docstring).
    status = models.CharField(
        _("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.PLAYING
    )
    cards_played = models.PositiveSmallIntegerField(_("cards played"), default=0)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    last_seq = models.PositiveIntegerField(_("last seq"), default=0)
    # Milliseconds from started_at to when cards_played last changed: the ranking's
    # time (games.races.selectors), kept so a board of thousands sorts in the database.
    count_reached_ms = models.PositiveIntegerField(_("count reached (ms)"), null=True, blank=True)
    # The projection of the moderation log.
    voided = models.BooleanField(_("voided"), default=False)
    flagged = models.BooleanField(_("flagged"), default=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
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
            # Head-to-head (games/friends/headtohead.py): a player's race games by race.
            models.Index(
                fields=["player", "race"], condition=Q(race__isnull=False), name="game_player_race"
            ),
        ]

    def __str__(self) -> str:
        return _("game #%(id)s") % {"id": self.pk}

    @property
    def is_over(self) -> bool:
        return self.status != GameStatus.PLAYING


class Move(AppendOnlyModel):
    """One event of a game's log: a move, `undo` or `resign`.

    `automatic`: the server chose it (a safe move, a Finish, the undo of an
    automatic move), not the player; timing statistics and anti-cheat skip it.
    """

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.PROTECT, related_name="moves"
    )
    seq = models.PositiveIntegerField(_("seq"))
    token = models.CharField(_("token"), max_length=8)
    accepted_at = models.DateTimeField(_("accepted at"))
    client_move_id = models.CharField(_("client move id"), max_length=64)
    # Played by the server (a safe move, or Finish), not by the player's hand.
    automatic = models.BooleanField(_("automatic"), default=False)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
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

    moderator: models.ForeignKey[User | None, User | None] = _optional_link(
        models.ForeignKey,
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        _("moderator"),
        "moderation_actions",
    )
    moderator_name = models.CharField(_("moderator name"), max_length=150)
    action = models.CharField(_("action"), max_length=12, choices=ModerationKind.choices)
    game: models.ForeignKey[Game | None, Game | None] = _optional_link(
        models.ForeignKey, Game, models.PROTECT, _("game"), "moderation_actions"
    )
    player: models.ForeignKey[Player | None, Player | None] = _optional_link(
        models.ForeignKey, Player, models.PROTECT, _("player"), "moderation_actions"
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
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
        if self.game_id:
            target = _("game #%(id)s") % {"id": self.game_id}
        else:
            target = _("player #%(id)s") % {"id": self.player_id}
        return _("%(action)s %(target)s by %(moderator)s") % {
            "action": self.get_action_display(),
            "target": target,
            "moderator": self.moderator_name,
        }
