from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_countries.fields import CountryField

from games.models import Game
from players.audit.registry import register_audit_actions
from players.models import Player
from tournaments.format_words import round_name_text


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
    # controller from the score sheets (tournaments/services/table_opens.py).
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


class Pair(models.Model):
    """Two players who play a championship's doubles together (seats 0 and 2, or 1 and 3, of a
    pairs record). Belongs to the championship so the same pair moves on from a qualifying
    stage; its entries say in which events it plays."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="pairs")
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pairs_as_a")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="pairs_as_b")
    # "Ana & Bela", written when the pair is formed (a later rename of a player is not followed).
    name = models.CharField(max_length=90)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")), name="pair_two_players"
            ),
            models.UniqueConstraint(
                fields=["championship", "player_a", "player_b"], name="pair_once_per_championship"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.player_a_id, self.player_b_id)


class Team(models.Model):
    """A national (or regional) team of a championship, with an ordered roster (TeamMember).

    Belongs to the championship, so the same team plays its group stage and its knockout."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=60, help_text=_('e.g. "GBR A"'))
    # The country the team represents: the group draw keeps two teams of one country apart.
    country = CountryField(blank=True)
    # Who may play for it: these countries' players; empty means the team's country only.
    region_countries = models.JSONField(default=list, blank=True)
    captain = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="teams_captained"
    )
    deputy = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="teams_deputised"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "name"], name="team_name_unique_in_championship"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def eligible_countries(self) -> list[str]:
        return list(self.region_countries or ([self.country.code] if self.country else []))


class TeamMember(models.Model):
    """One player of a team's roster; `board` is the roster order (1 plays board 1)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="team_memberships")
    board = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["team", "board"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="team_member_once"),
            models.UniqueConstraint(fields=["team", "board"], name="team_member_board_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: board {self.board} {self.player}"


class EntryStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting the partner's confirmation")
    ACTIVE = "active", pgettext_lazy("entry status", "Active")
    WITHDRAWN = "withdrawn", pgettext_lazy("entry status", "Withdrawn")
    ELIMINATED = "eliminated", pgettext_lazy("entry status", "Eliminated")
    QUALIFIED = "qualified", _("Qualified onward")
    CHAMPION = "champion", pgettext_lazy("entry status", "Champion")


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

    @property
    def link(self) -> str:
        """The page of the side: the player's or the team's; a pair has none of its own."""
        from django.urls import reverse

        if self.team_id is not None:
            return reverse("team-page", args=[self.team_id])
        if self.player_id is not None:
            return reverse("player-detail", args=[self.player_id])
        return ""


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    deadline_processed = models.BooleanField(default=False)
    # Team events: until then captains may change their roster and board order for this round.
    lineup_deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_unique_in_event")
        ]

    def __str__(self) -> str:
        """The name in the reader's language."""
        return round_name_text(self.english_name, self.number)

    @property
    def english_name(self) -> str:
        """The name as the draw stored it, in English: what the audit trail keeps."""
        return self.name or f"Round {self.number}"


class MatchStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting for players")
    SCHEDULED = "scheduled", pgettext_lazy("match status", "Scheduled")
    IN_PROGRESS = "in_progress", _("In progress")
    DECIDED = "decided", pgettext_lazy("match status", "Decided")
    WALKOVER = "walkover", pgettext_lazy("match status", "Walkover")
    RULED = "ruled", _("Ruled by an organiser")
    VOID = "void", _("Void (neither side)")


FINAL_MATCH_STATUSES = (
    MatchStatus.DECIDED,
    MatchStatus.WALKOVER,
    MatchStatus.RULED,
    MatchStatus.VOID,
)


class Match(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    # Knockout: the match's index in its round, top to bottom. Groups: the group number.
    bracket_index = models.PositiveIntegerField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    entry_a = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_as_a"
    )
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_as_b"
    )
    is_bye = models.BooleanField(default=False)
    status = models.CharField(
        max_length=12, choices=MatchStatus.choices, default=MatchStatus.WAITING
    )
    tps_a = models.DecimalField(max_digits=6, decimal_places=1, default=Decimal("0"))
    tps_b = models.DecimalField(max_digits=6, decimal_places=1, default=Decimal("0"))
    games_played = models.PositiveSmallIntegerField(default=0)
    state_reason = models.CharField(max_length=32, blank=True)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_won"
    )
    next_match = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="feeders"
    )
    next_side = models.PositiveSmallIntegerField(null=True, blank=True)
    walkover_claimed_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "round__number", "group", "bracket_index", "id"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "bracket_index"],
                condition=models.Q(bracket_index__isnull=False),
                name="match_unique_bracket_slot",
            ),
            models.CheckConstraint(
                condition=models.Q(next_side__isnull=True) | models.Q(next_side__in=[0, 1]),
                name="match_next_side_0_or_1",
            ),
            models.CheckConstraint(
                condition=models.Q(entry_a__isnull=True)
                | models.Q(entry_b__isnull=True)
                | ~models.Q(entry_a=models.F("entry_b")),
                name="match_two_different_entries",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk}"

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_MATCH_STATUSES


class MatchGame(models.Model):
    """A valid game counted for a match, with its TPs after time penalties."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="match_game")
    number = models.PositiveSmallIntegerField()
    # Seat of side A's player in the game (side B is the other seat; in a pairs game side A
    # also has seat_a + 2).
    seat_a = models.PositiveSmallIntegerField()
    # Team matches: the board the game was played on (1 = board 1); empty otherwise.
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    base_tps_a = models.DecimalField(max_digits=4, decimal_places=1)
    base_tps_b = models.DecimalField(max_digits=4, decimal_places=1)
    penalty_a = models.PositiveSmallIntegerField(default=0, help_text=_("TPs side A forfeits"))
    penalty_b = models.PositiveSmallIntegerField(default=0, help_text=_("TPs side B forfeits"))
    tps_a = models.DecimalField(max_digits=4, decimal_places=1)
    tps_b = models.DecimalField(max_digits=4, decimal_places=1)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_number_unique"),
            models.CheckConstraint(
                condition=models.Q(tps_a__gte=0, tps_b__gte=0, tps_a__lte=20, tps_b__lte=20),
                name="match_game_tps_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number}"


class TeamBoard(models.Model):
    """A team match's lineup: who plays whom on each board, fixed when its first game counts.

    Until then the lineup is the two rosters' first boards as they stand (a captain may still
    change them before the round's lineup deadline)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["match", "board"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="team_board_unique"),
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")), name="team_board_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} board {self.board}"


class RosterChangeKind(models.TextChoices):
    CREATED = "created", _("Team created")
    SUBSTITUTION = "substitution", _("Substitution")
    BOARD_ORDER = "board_order", _("Board order changed")
    CAPTAINCY = "captaincy", _("Captain or deputy changed")


class TeamRosterChange(models.Model):
    """The log of a team's roster: who changed what, when, with the roster before and after."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster_changes")
    kind = models.CharField(max_length=16, choices=RosterChangeKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    before = models.JSONField(default=list, blank=True)  # player ids in board order
    after = models.JSONField(default=list, blank=True)
    reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.team}: {self.get_kind_display()}"


class SheetEnding(models.TextChoices):
    """How a face-to-face game ended (games.score_sheet.Ending)."""

    COMPLETED = "completed", _("Played to the end")
    RESIGNED = "resigned", _("Resigned")
    TIME = "time", _("Lost on time")


class TableResultState(models.TextChoices):
    """A typed table-open result: standing as typed, disputed by a player, or ruled on."""

    ENTERED = "entered", pgettext_lazy("a typed result's state", "Entered")
    DISPUTED = "disputed", _("Disputed")
    RULED = "ruled", _("Ruled")


class TableResult(models.Model):
    """A Table Open game as its score sheet says, typed by a controller: no record.

    One game per table and round, so one per match; the match's TPs are this sheet's."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="table_result")
    score_a = models.PositiveSmallIntegerField(validators=[MaxValueValidator(84)])
    score_b = models.PositiveSmallIntegerField(validators=[MaxValueValidator(84)])
    ending = models.CharField(
        max_length=10, choices=SheetEnding.choices, default=SheetEnding.COMPLETED
    )
    # 0 = side A, 1 = side B: who resigned or lost on time.
    conceded_by = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_a = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_b = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField()
    # A player of the table says the typed result is not what the sheet says; the result keeps
    # counting until a controller rules (and an organiser may reopen a ruling). Each step is a
    # line of the audit trail with the result before and after: the result's history.
    state = models.CharField(
        max_length=10, choices=TableResultState.choices, default=TableResultState.ENTERED
    )
    dispute_reason = models.CharField(max_length=2000, blank=True, default="")
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(score_a__lte=84, score_b__lte=84),
                name="table_result_scores_in_range",
            ),
            models.CheckConstraint(
                condition=(models.Q(ending="completed") & models.Q(conceded_by__isnull=True))
                | (models.Q(ending__in=["resigned", "time"]) & models.Q(conceded_by__in=[0, 1])),
                name="table_result_concession_named",
            ),
        ]

    def __str__(self) -> str:
        return f"table result of match {self.match_id}"


class UncountedGame(models.Model):
    """A valid game submitted for a match that did not count for it (it stays a casual game).

    The state the sweep for lost countings reads: such a game was refused, not lost, so it is
    never retried. The audit trail records the same refusal for people (`game_not_counted`).
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="uncounted")
    # A plain id: the match may not exist (that can be the very reason).
    match_id = models.PositiveBigIntegerField(null=True, blank=True)
    reason = models.TextField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"game {self.game_id} not counted for match {self.match_id}"


class AuditAction(models.TextChoices):
    """The registry of the championship audit trail's actions, with the words people read.

    Registered in the one registry (`players.audit.registry`); the entries are
    `players.AuditEntry` rows with `championship_id` and `event_id`.
    """

    CHAMPIONSHIP_CREATE = "championship_create", _("Championship created")
    CHAMPIONSHIP_UPDATE = "championship_update", _("Championship changed")
    ORGANISER_ADD = "organiser_add", _("Co-organiser added")
    ORGANISER_REMOVE = "organiser_remove", _("Co-organiser removed")
    CONTROLLER_ADD = "controller_add", _("Controller added")
    CONTROLLER_REMOVE = "controller_remove", _("Controller removed")
    EVENT_CREATE = "event_create", _("Event created")
    REGISTRATION_OPEN = "registration_open", _("Registration opened")
    REGISTRATION_CLOSE = "registration_close", _("Registration closed")
    ENTRY_REGISTER = "entry_register", pgettext_lazy("an entry made in an event", "Player entered")
    ENTRY_WITHDRAW = "entry_withdraw", _("Entry withdrawn")
    EVENT_SEED = "event_seed", _("Entries seeded")
    DRAW_GENERATE = "draw_generate", _("Draw made")
    CHAMPION = "champion", _("Champion decided")
    GAME_COUNTED = "game_counted", _("Game counted for its match")
    GAME_NOT_COUNTED = "game_not_counted", _("Game not counted for its match")
    TIME_PENALTY = "time_penalty", _("Time penalty claimed")
    MATCH_RULE = "match_rule", _("Match ruled")
    WALKOVER_CLAIM = "walkover_claim", _("Walkover claimed")
    DEADLINE_SET = "deadline_set", _("Round deadline set")
    DEADLINE_LEADER = "deadline_leader", _("Deadline passed: the side ahead on TPs wins")
    DEADLINE_WALKOVER = "deadline_walkover", _("Deadline passed: walkover to the claimant")
    DEADLINE_BOTH_OUT = "deadline_both_out", _("Deadline passed, no game and no claim: both out")
    DEADLINE_LEVEL = "deadline_level", _("Deadline passed with the match level: ruling needed")
    QUALIFIERS_ADVANCE = "qualifiers_advance", _("Qualifiers moved on")
    TABLE_OPEN_CREATE = "table_open_create", _("Table open created")
    TABLE_RESULTS_ENTER = "table_results_enter", _("Round results entered from score sheets")
    TABLE_RESULT_CORRECT = "table_result_correct", _("Score sheet result corrected")
    TABLE_RESULT_DISPUTE = "table_result_dispute", _("Table result disputed")
    TABLE_RESULT_RULE = "table_result_rule", _("Table result ruled")
    TABLE_RESULT_REOPEN = "table_result_reopen", _("Table result ruling reopened")
    ROUND_REPAIR = "round_repair", _("Round paired again")
    ENTRY_LATE = "entry_late", _("Late entry")
    ENTRY_DROP = "entry_drop", _("Player dropped out")
    TIEBREAKS_SET = "tiebreaks_set", _("Tie-breaks set")
    EVENT_IMPORT = "event_import", _("Event imported")
    PAIR_REQUEST = "pair_request", _("Pair registered, awaiting the partner")
    PAIR_DECLINE = "pair_decline", _("Pair request called off")
    TEAM_CREATE = "team_create", _("Team created")
    TEAM_ROSTER = "team_roster", _("Team roster changed")
    TEAM_ENTER = "team_enter", _("Team entered")
    LINEUP_DEADLINE_SET = "lineup_deadline_set", _("Lineup deadline set")


register_audit_actions(AuditAction, area="tournaments", label=_("Championships"))

# Models kept in their sub-domain's room, imported here so that the app's migrations see them.
from tournaments.forecasts.models import ForecastEvaluation  # noqa: E402, F401
