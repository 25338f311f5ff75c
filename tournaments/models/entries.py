"""Entries: one side of an event's matches (a player, a pair or a team), and a junior's own
word about their age."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from players.audit.transitions import StatusTable, register_status_table
from players.models import Player
from tournaments.models.championships import EntryKind, Event
from tournaments.models.sides import Pair, Team


class EntryStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting the partner's confirmation")
    ACTIVE = "active", pgettext_lazy("entry status", "Active")
    WITHDRAWN = "withdrawn", pgettext_lazy("entry status", "Withdrawn")
    ELIMINATED = "eliminated", pgettext_lazy("entry status", "Eliminated")
    QUALIFIED = "qualified", _("Qualified onward")
    CHAMPION = "champion", pgettext_lazy("entry status", "Champion")


# How an entry's status moves (players.audit.transitions). A pair waits for the partner; an
# entry in play is withdrawn, eliminated, qualifies onward or wins; a ruling that changes a
# match's result puts its sides back in play; a qualifier stage's eliminated entries and its
# champion may still qualify onward.
ENTRY_STATUSES = StatusTable(
    what=_("This entry"),
    choices=EntryStatus,
    moves={
        EntryStatus.PENDING: (EntryStatus.ACTIVE, EntryStatus.WITHDRAWN),
        EntryStatus.ACTIVE: (
            EntryStatus.WITHDRAWN,
            EntryStatus.ELIMINATED,
            EntryStatus.QUALIFIED,
            EntryStatus.CHAMPION,
        ),
        EntryStatus.ELIMINATED: (EntryStatus.ACTIVE, EntryStatus.QUALIFIED),
        EntryStatus.CHAMPION: (EntryStatus.ACTIVE, EntryStatus.QUALIFIED),
        EntryStatus.QUALIFIED: (),
        EntryStatus.WITHDRAWN: (),
    },
    initial=(EntryStatus.PENDING, EntryStatus.ACTIVE),
)


class EntrySource(models.TextChoices):
    REGISTRATION = "registration", pgettext_lazy("entry source", "Registered")
    QUALIFIER = "qualifier", pgettext_lazy("entry source", "Qualified")


# What `select_related` needs for an entry's name: `*SIDES`, or `*sides_of("entry_a")`.
SIDES = ("player", "pair", "team")


def sides_of(prefix: str) -> tuple[str, ...]:
    return tuple(f"{prefix}__{side}" for side in SIDES)


class AgeConfirmation(models.Model):
    """A player's own word that they are under `age_limit` on `cutoff_date`, checked against
    their date of birth when they gave it (by confirming on a junior event's page, or by
    entering one themselves).

    The date of birth is private, so a junior event's age check answers only to those who may
    know it (the player, staff, the organiser who entered a player without an account). Anyone
    else who enters the player (an organiser, a captain, a partner) is answered from this
    confirmation alone: without it the refusal is the same whatever the date of birth, so
    entering someone cannot be used to find their birthday (issue 26).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="age_confirmations")
    age_limit = models.PositiveSmallIntegerField()
    cutoff_date = models.DateField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "age_limit", "cutoff_date"], name="age_confirmation_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} under {self.age_limit} on {self.cutoff_date}"


class Entry(models.Model):
    """One side of an event's matches: a player, a pair or a team (exactly one of the three).

    Draws, seeding, byes, walkovers, tables and brackets work on entries and never ask which;
    what differs (whose games count, who may act for the entry) is asked of `members()`."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    pair = models.ForeignKey(
        Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    seeding_points = models.FloatField(null=True, blank=True)
    seeding_basis = models.CharField(max_length=24, blank=True)
    source = models.CharField(
        max_length=12, choices=EntrySource.choices, default=EntrySource.REGISTRATION
    )
    qualifier_rank = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    # Table opens: the first round a late entry plays, and the last round before a drop-out.
    joined_round = models.PositiveSmallIntegerField(null=True, blank=True)
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "seed", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event"),
            models.UniqueConstraint(fields=["event", "pair"], name="entry_pair_once_per_event"),
            models.UniqueConstraint(fields=["event", "team"], name="entry_team_once_per_event"),
            models.CheckConstraint(
                condition=(
                    models.Q(player__isnull=False, pair__isnull=True, team__isnull=True)
                    | models.Q(player__isnull=True, pair__isnull=False, team__isnull=True)
                    | models.Q(player__isnull=True, pair__isnull=True, team__isnull=False)
                ),
                name="entry_exactly_one_side",
            ),
            models.UniqueConstraint(
                fields=["event", "seed"],
                condition=models.Q(seed__isnull=False),
                name="entry_seed_unique_in_event",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.event.name})"

    @property
    def kind(self) -> str:
        if self.pair_id is not None:
            return EntryKind.PAIR
        if self.team_id is not None:
            return EntryKind.TEAM
        return EntryKind.SINGLE

    @property
    def side(self) -> Player | Pair | Team:
        return self.pair if self.pair_id else self.team if self.team_id else self.player

    @property
    def name(self) -> str:
        """The side's name for pages: the player's, "Ana & Bela", or the team's."""
        side = self.side
        return side.display_name if isinstance(side, Player) else side.name

    @property
    def country_code(self) -> str | None:
        """The country a draw keeps apart: the player's, the team's, a pair's shared one."""
        if self.team_id is not None:
            return self.team.country.code or None
        if self.pair_id is not None:
            a, b = self.pair.player_a.country.code, self.pair.player_b.country.code
            return a if a and a == b else None
        return self.player.country.code or None

    @property
    def country_name(self) -> str:
        if self.team_id is not None:
            return self.team.country.name or ""
        if self.player_id is not None:
            return self.player.country.name or ""
        code = self.country_code
        return self.pair.player_a.country.name if code else ""

    def members(self) -> list[int]:
        """The ids of the players who play for this entry (a team's whole roster)."""
        if self.pair_id is not None:
            return list(self.pair.player_ids)
        if self.team_id is not None:
            return list(self.team.members.values_list("player_id", flat=True))
        return [self.player_id]


register_status_table(Entry, ENTRY_STATUSES)
