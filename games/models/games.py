"""Games, and the append-only log of moves whose replay each game is."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engine import SEED_LIMIT, VARIANTS
from games.models.base import VARIANT_CHOICES, AppendOnlyModel, AppendOnlyQuerySet, optional_link
from games.models.players import Player
from games.models.races import Race

MAX_CARDS_PLAYED = 95


class GameStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    WON = "won", _("Won")
    LOST = "lost", _("Lost")
    RESIGNED = "resigned", _("Resigned")
    TIMEOUT = "timeout", _("Timeout")  # the race's time ran out with the game still open


class Game(models.Model):
    Status = GameStatus

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="games"
    )
    race: models.ForeignKey[Race | None, Race | None] = optional_link(
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
