"""Championships and their events (stages), with the choices that shape an event."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from players.audit.transitions import StatusTable, register_status_table


class Category(models.TextChoices):
    WORLD = "world", _("World championship")
    CONTINENTAL = "continental", _("Continental championship")
    NATIONAL = "national", _("National championship")
    JUNIOR = "junior", _("Junior championship")
    OPEN = "open", _("Open / Table Open")


class Championship(models.Model):
    name = models.CharField(max_length=120)
    # Tantrix championships began in 1988; the upper bound keeps dates derived from it storable.
    year = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1988), MaxValueValidator(2200)]
    )
    category = models.CharField(max_length=12, choices=Category.choices, default=Category.OPEN)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_championships", blank=True
    )
    controllers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="controlled_championships", blank=True
    )
    published = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-year", "name"]
        constraints = [
            models.UniqueConstraint(fields=["name", "year"], name="championship_unique_name_year")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.year}"


class EventFormat(models.TextChoices):
    KNOCKOUT = "knockout", _("Knockout")
    GROUPS = "groups", _("Groups")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")


class Eligibility(models.TextChoices):
    OPEN = "open", _("Open to all")
    JUNIOR = "junior", _("Juniors (under an age on a cut-off date)")
    NATIONAL = "national", _("Players of listed countries")
    MINIMUM_RANKING = "minimum_ranking", _("Minimum ranking")


class QualifierPolicy(models.TextChoices):
    AGAINST_TOP_SEEDS = "against_top_seeds", _("Qualifiers meet the top seeds")
    DRAWN_INTO_SECTIONS = "drawn_into_sections", _("Qualifiers drawn into seeded sections")


class EntryKind(models.TextChoices):
    """What one side of the event's matches is (docs/architecture.md, "Entries and sides")."""

    SINGLE = "single", _("Singles (one player)")
    PAIR = "pair", _("Doubles (pairs)")
    TEAM = "team", _("Teams")


class EventStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration open")
    CLOSED = "closed", _("Registration closed")
    DRAWN = "drawn", _("Drawn, in play")
    FINISHED = "finished", pgettext_lazy("event status", "Finished")


# How an event's status moves (players.audit.transitions): registration opens and closes until
# the draw; a drawn event finishes once its last match, Swiss round or qualifiers are decided.
EVENT_STATUSES = StatusTable(
    what=_("This event"),
    choices=EventStatus,
    moves={
        EventStatus.REGISTRATION: (EventStatus.CLOSED, EventStatus.DRAWN),
        EventStatus.CLOSED: (EventStatus.REGISTRATION, EventStatus.DRAWN),
        EventStatus.DRAWN: (EventStatus.FINISHED,),
        EventStatus.FINISHED: (),
    },
    initial=(EventStatus.REGISTRATION,),
)


class Event(models.Model):
    """A stage of a championship: a qualifier, a group stage, a knockout, a Swiss..."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    stage = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Order within the championship"),
    )
    format = models.CharField(max_length=12, choices=EventFormat.choices)
    entry_kind = models.CharField(max_length=8, choices=EntryKind.choices, default=EntryKind.SINGLE)
    status = models.CharField(
        max_length=12, choices=EventStatus.choices, default=EventStatus.REGISTRATION
    )
    games_per_match = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    extra_game_margin = models.DecimalField(max_digits=4, decimal_places=1, default=Decimal("0"))
    max_extra_games = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(20)]
    )
    tp_scheme = models.PositiveSmallIntegerField(default=1)
    time_limit_seconds = models.PositiveIntegerField(
        default=15 * 60, validators=[MinValueValidator(60), MaxValueValidator(24 * 3600)]
    )
    eligibility = models.CharField(
        max_length=16, choices=Eligibility.choices, default=Eligibility.OPEN
    )
    junior_age_limit = models.PositiveSmallIntegerField(
        default=16, validators=[MinValueValidator(6), MaxValueValidator(30)]
    )
    cutoff_date = models.DateField(null=True, blank=True)
    countries = models.JSONField(default=list, blank=True, help_text=_("ISO codes (national)"))
    minimum_ranking = models.PositiveIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(1000)]
    )
    # What feeds it: registrations, and/or the qualifiers of another event.
    feeds_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="feeds"
    )
    qualifiers_count = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(4096)],
        help_text=_("How many qualify from `feeds_from` into this event"),
    )
    qualifier_policy = models.CharField(
        max_length=20, choices=QualifierPolicy.choices, default=QualifierPolicy.AGAINST_TOP_SEEDS
    )
    sections = models.PositiveSmallIntegerField(default=1, validators=[MaxValueValidator(64)])
    groups_count = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(1024)])
    double_round_robin = models.BooleanField(default=False)
    swiss_rounds = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(50)])
    draw_seed = models.BigIntegerField(
        null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(2**62)]
    )
    # A face-to-face Table Open (Swiss or round robin): one game per table and round, typed by a
    # controller from the score sheets (tournaments/opens/services/table_opens.py).
    table_open = models.BooleanField(default=False)
    # The standings' criteria in order (keys of tournaments.formats.tiebreaks.CRITERIA); empty:
    # the default list. Shown before the start; changed after it only when confirmed.
    tiebreaks = models.JSONField(default=list, blank=True)
    # Team events: boards per team match (each plays `games_per_match` games) and the tie-breaks
    # of a team match level on TPs (keys of tournaments.formats.teams.TEAM_TIEBREAKS; empty:
    # the default list).
    team_boards = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    team_tiebreaks = models.JSONField(default=list, blank=True)
    round_days = models.PositiveSmallIntegerField(
        default=14,
        validators=[MinValueValidator(1), MaxValueValidator(365)],
        help_text=_("Days each round lasts; sets round deadlines at the draw"),
    )
    champion = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "stage", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games_per_match__gte=1), name="event_games_per_match_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(max_extra_games=0) | models.Q(extra_game_margin__gt=0),
                name="event_extra_games_need_margin",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · {self.name}"


register_status_table(Event, EVENT_STATUSES)
