"""Races, their seats, and their outbox of announced changes."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, ClassVar, Final

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import SEED_LIMIT, VARIANTS
from games.models.base import VARIANT_CHOICES, optional_link
from games.models.players import Player

if TYPE_CHECKING:
    from games.models.games import Game

# Readable and unambiguous when read aloud or typed: no 0/o, 1/l/i.
RACE_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def race_code_new() -> str:
    """Eight characters from 31 (about 2^40): short enough to read out, too many to guess."""
    chars = "".join(secrets.choice(RACE_CODE_ALPHABET) for _ in range(8))
    return f"{chars[:4]}-{chars[4:]}"


class RaceStatus(models.TextChoices):
    LOBBY = "lobby", _("Lobby")
    COUNTDOWN = "countdown", _("Countdown")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


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
    rematch_of: models.OneToOneField[Race | None, Race | None] = optional_link(
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
    ghost: models.ForeignKey[Game | None, Game | None] = optional_link(
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
