"""A tournament's tables (registered by games/apps.py).

Races know nothing of tournaments: `TournamentRace` points at the Race it
seated. A result is inserted once, when its race has ended, from the race's
kept ranking; a moderator's void is a row of its own. Points are never stored:
they are folded from the results that are not voided (games/tournaments/points.py),
so a void recomputes everything after it without editing history. Results and
voids are append-only in SQL (triggers, migration 0019), as the move log is.
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def tournament_code_new() -> str:
    """Ten characters from 31 (about 2^50): a private tournament's link cannot be guessed."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))


class Tournament(models.Model):
    code = models.CharField(_("code"), max_length=10, unique=True, default=tournament_code_new)
    name = models.CharField(_("name"), max_length=60)
    variant = models.CharField(_("variant"), max_length=16)
    # None: scheduled by the site (the daily arena of a variant).
    created_by = models.ForeignKey(
        "games.Player",
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        related_name="tournaments_created",
        null=True,
        blank=True,
    )
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    seat_limit = models.PositiveSmallIntegerField(_("seats per race"), default=4)
    race_time_limit_s = models.PositiveIntegerField(_("race time limit (s)"))
    automatic_moves = models.BooleanField(_("automatic moves"), default=False)
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Set once the end has passed and every race it seated is scored.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Bumped by every change its standings show (a socket drops a version it has seen).
    version = models.BigIntegerField(_("version"), default=0)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(variant__in=list(VARIANTS)), name="tournament_variant_valid"
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=F("starts_at")), name="tournament_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(seat_limit__gte=2, seat_limit__lte=8), name="tournament_seats_2_to_8"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="tournament_name_not_empty"),
            models.CheckConstraint(
                condition=Q(race_time_limit_s__gte=30), name="tournament_race_time_positive"
            ),
            # The site's daily arena of a variant is made once, whichever process asks first.
            models.UniqueConstraint(
                fields=["variant", "starts_at"],
                condition=Q(created_by__isnull=True),
                name="tournament_site_once_per_start",
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(finished_at__gte=F("ends_at")),
                name="tournament_finished_after_end",
            ),
        ]
        indexes: ClassVar = [
            models.Index(fields=["finished_at", "starts_at"], name="tournament_open_by_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class TournamentEntry(models.Model):
    """An entrant. `paused`: out of the queue until they come back; `waiting_since`:
    when they last became free to be seated (joined, came back, their race ended)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    paused = models.BooleanField(_("paused"), default=False)
    waiting_since = models.DateTimeField(_("waiting since"))

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_entry_once_per_player"
            ),
        ]
        indexes: ClassVar = [
            models.Index(fields=["player", "paused"], name="tournament_entry_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class TournamentRace(models.Model):
    """A race the tournament seated; `scored_at` once its results are in."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="races")
    race = models.OneToOneField(
        "games.Race", on_delete=models.PROTECT, related_name="tournament_race"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    scored_at = models.DateTimeField(_("scored at"), null=True, blank=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["tournament", "scored_at"], name="tournament_race_unscored"),
        ]

    def __str__(self) -> str:
        return f"{self.race} of {self.tournament}"


class TournamentResult(models.Model):
    """One racer's result in one race of the tournament, as the race's ranking kept it.

    `place` is among the racer and the opponents their result counts against: the
    race's ranked racers (the first-sight rule: a racer who had seen the deal is
    `ranked=False`, earns nothing and places nobody below) that are placed and not
    met too often that day (games.fairness.worth); `racers` is how many those are,
    the racer included."""

    tournament_race = models.ForeignKey(
        TournamentRace, on_delete=models.PROTECT, related_name="results"
    )
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="+")
    ranked = models.BooleanField(default=True)
    # Made enough moves of their own to be anyone's opponent (games.fairness.worth);
    # a result not placed earns nothing.
    placed = models.BooleanField(default=True)
    place = models.PositiveSmallIntegerField()
    racers = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    cards_played = models.PositiveSmallIntegerField()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["tournament_race", "player"], name="tournament_result_once"
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=F("racers")) | Q(ranked=False),
                name="tournament_result_place_in_race",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.place}/{self.racers}"


class TournamentVoid(models.Model):
    """A moderator voided a race of the tournament: its results no longer count."""

    tournament_race = models.OneToOneField(
        TournamentRace, on_delete=models.PROTECT, related_name="void"
    )
    moderator_name = models.CharField(_("moderator name"), max_length=150)
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=~Q(reason=""), name="tournament_void_has_reason"),
        ]

    def __str__(self) -> str:
        return f"void of {self.tournament_race}"


class TournamentTable(models.Model):
    """The standings as last sent to the tournament's sockets, at `version`.

    What a socket gets on connect and on `sync`, and the base the next frame's
    changed rows are counted against (games/tournaments/announce.py): its row lock
    puts every frame of a tournament in one chain, each frame's `base` the `v` of
    the one before, whichever process sends it. Derived, never history: rebuilt
    from the results on the next change."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="table"
    )
    version = models.BigIntegerField(_("version"), default=0)
    rows = models.JSONField(_("rows"), default=list)

    def __str__(self) -> str:
        return f"table of {self.tournament_id} at v{self.version}"
