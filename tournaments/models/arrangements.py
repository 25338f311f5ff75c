"""Arranging when a match is played (issue 30): proposals, the agreement, an event's response
window, players' usual free times, and a no-show claim that carries the agreement as evidence.

Times are stored as instants (UTC); each reader sees them in their own zone. The zone a player
wrote their usual free times in is stored with them, since those are times of day, not instants.
The services are `tournaments/arrangements/services/`.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from players.audit.transitions import StatusTable, register_status_table
from players.models import Player
from players.preferences.timezones import validate_time_zone
from tournaments.models.championships import Event
from tournaments.models.matches import Match


class ProposalStatus(models.TextChoices):
    OPEN = "open", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    # The opponent proposed other times instead, or another time was agreed.
    DECLINED = "declined", _("Not taken")
    WITHDRAWN = "withdrawn", _("Withdrawn by the proposer")


# A proposal is answered once; an agreement is withdrawn once (a new time is a new agreement).
PROPOSAL_STATUSES = StatusTable(
    what=_("This proposed time"),
    choices=ProposalStatus,
    moves={
        ProposalStatus.OPEN: {
            ProposalStatus.ACCEPTED,
            ProposalStatus.DECLINED,
            ProposalStatus.WITHDRAWN,
        }
    },
    initial={ProposalStatus.OPEN},
)


class MatchProposal(models.Model):
    """A time one side of a match proposes for it; the other side accepts one or proposes
    others (which sets the open ones aside)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="proposals")
    # 0 = the match's entry_a, 1 = entry_b.
    side = models.PositiveSmallIntegerField()
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    starts_at = models.DateTimeField()
    note = models.CharField(max_length=300, blank=True)
    status = models.CharField(
        max_length=10, choices=ProposalStatus.choices, default=ProposalStatus.OPEN
    )
    created = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "created", "starts_at", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(side__in=[0, 1]), name="proposal_side_0_1"),
            models.UniqueConstraint(
                fields=["match", "starts_at"],
                condition=models.Q(status="open"),
                name="proposal_open_time_unique",
            ),
        ]
        indexes = [models.Index(fields=["status", "created"], name="proposal_status_created")]

    def __str__(self) -> str:
        return f"match {self.match_id} proposal {self.pk}"


class ArrangementStatus(models.TextChoices):
    AGREED = "agreed", _("Agreed")
    WITHDRAWN = "withdrawn", _("Withdrawn")


ARRANGEMENT_STATUSES = StatusTable(
    what=_("This agreed time"),
    choices=ArrangementStatus,
    moves={ArrangementStatus.AGREED: {ArrangementStatus.WITHDRAWN}},
    initial={ArrangementStatus.AGREED},
)


class ArrangementSource(models.TextChoices):
    ACCEPTED = "accepted", _("Accepted by the opponent")
    AUTO = "auto", _("Accepted for a silent opponent when the response window passed")
    ORGANISER = "organiser", _("Set by an organiser")


class MatchArrangement(models.Model):
    """An agreed time for a match. At most one agreed per match; a withdrawn one stays, with
    who withdrew it and why, as the history (and the evidence of a no-show claim)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="arrangements")
    starts_at = models.DateTimeField()
    agreed_at = models.DateTimeField()
    source = models.CharField(max_length=10, choices=ArrangementSource.choices)
    proposal = models.ForeignKey(
        MatchProposal, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(
        max_length=10, choices=ArrangementStatus.choices, default=ArrangementStatus.AGREED
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    withdraw_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["match", "-agreed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status="agreed"),
                name="arrangement_one_agreed_per_match",
            ),
            models.CheckConstraint(
                condition=models.Q(status="agreed") | ~models.Q(withdraw_reason=""),
                name="arrangement_withdrawn_with_reason",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="arrangement_status_start")]

    def __str__(self) -> str:
        return f"match {self.match_id} arranged for {self.starts_at:%Y-%m-%d %H:%M} UTC"


class ArrangementPolicy(models.Model):
    """An event's rules for arranging its matches (none: no automatic acceptance)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="arrangement")
    # After this many hours without an answer, the first proposed time is accepted for the
    # silent opponent; empty: never.
    response_hours = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 30)],
    )

    def __str__(self) -> str:
        return f"arrangement policy of event {self.event_id}"


class AvailabilityWindow(models.Model):
    """When a player is usually free, as they wrote it: a weekday and times of day in their
    zone. Advisory: the opponent sees it in their own zone; nothing is refused by it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="availability")
    # 0 = Monday ... 6 = Sunday (Python's weekday()).
    weekday = models.PositiveSmallIntegerField(validators=[MaxValueValidator(6)])
    starts = models.TimeField()
    ends = models.TimeField()
    time_zone = models.CharField(max_length=64, validators=[validate_time_zone])

    class Meta:
        ordering = ["player", "weekday", "starts"]
        constraints = [
            models.CheckConstraint(condition=models.Q(weekday__lte=6), name="availability_weekday"),
            models.CheckConstraint(
                condition=models.Q(ends__gt=models.F("starts")), name="availability_ends_after"
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} free on day {self.weekday}"


class NoShowClaim(models.Model):
    """One side says the other did not appear at the agreed time: the claim carries the
    agreement and both sides' messages for the controller who rules."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="no_show_claims")
    arrangement = models.ForeignKey(
        MatchArrangement, on_delete=models.PROTECT, related_name="no_show_claims"
    )
    side = models.PositiveSmallIntegerField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.TextField(max_length=2000)
    created = models.DateTimeField()
    reply = models.TextField(max_length=2000, blank=True)
    replied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    replied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "created", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(side__in=[0, 1]), name="no_show_side_0_1"),
            models.UniqueConstraint(
                fields=["arrangement", "side"], name="no_show_one_per_side_and_agreement"
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} no-show claim by side {self.side}"


register_status_table(MatchProposal, PROPOSAL_STATUSES)
register_status_table(MatchArrangement, ARRANGEMENT_STATUSES)
