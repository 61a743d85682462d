"""Who follows whom, who blocks whom, who may invite a player, and invitations to races.

A follow and a block are rows between two players; the database keeps them
right (one per pair and direction, never to oneself). Mutual follows are
friends: a relation read from the rows, never stored. An invitation names the
race it seats its invitee in; its answer is written once, and one that nobody
answered is expired when read (`expires_at`), so no timer has to run for it.
"""

from __future__ import annotations

from typing import ClassVar, Final

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

# Who may invite a player to a race (`InvitePrivacy`); a player without a row: friends.
INVITE_FRIENDS: Final = "friends"
INVITE_ANYONE: Final = "anyone"
INVITE_NOBODY: Final = "nobody"
INVITE_CHOICES: Final = [
    (INVITE_FRIENDS, _("Friends only")),
    (INVITE_ANYONE, _("Anyone")),
    (INVITE_NOBODY, _("No one")),
]


class Follow(models.Model):
    follower = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="following")
    followee = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followee")), name="follow_not_oneself"),
        ]
        # "Who follows me" (does a follow come back: friends, their presence) reads by followee.
        indexes: ClassVar = [
            models.Index(fields=["followee", "follower"], name="follow_by_followee")
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


class Block(models.Model):
    blocker = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_oneself"),
        ]
        indexes: ClassVar = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class InvitePrivacy(models.Model):
    player = models.OneToOneField(
        "games.Player", on_delete=models.CASCADE, related_name="invite_privacy"
    )
    invitations = models.CharField(
        _("invitations from"), max_length=8, choices=INVITE_CHOICES, default=INVITE_FRIENDS
    )

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(invitations__in=[INVITE_FRIENDS, INVITE_ANYONE, INVITE_NOBODY]),
                name="invite_privacy_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.invitations}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")


class Invitation(models.Model):
    Status = InvitationStatus

    inviter = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="invitations_sent"
    )
    invitee = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="invitations_received"
    )
    race = models.ForeignKey("games.Race", on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    status = models.CharField(
        max_length=8, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=~Q(inviter=F("invitee")), name="invitation_not_oneself"
            ),
            models.CheckConstraint(
                condition=Q(status__in=InvitationStatus.values), name="invitation_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="pending", answered_at__isnull=True)
                | (~Q(status="pending") & Q(answered_at__isnull=False)),
                name="invitation_answered_iff_not_pending",
            ),
            models.UniqueConstraint(fields=["race", "invitee"], name="invitation_once_per_race"),
        ]
        indexes: ClassVar = [
            models.Index(fields=["invitee", "status", "expires_at"], name="invitation_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.inviter_id} invites {self.invitee_id} to {self.race_id}"
