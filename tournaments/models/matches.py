"""Rounds and matches: the games counted for a match, a team match's boards, and the valid
games that did not count."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game
from players.audit.transitions import StatusTable, register_status_table
from players.models import Player
from tournaments.format_words import round_name_text
from tournaments.models.championships import Event
from tournaments.models.entries import Entry


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

_OPEN_TO_FINAL = (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.RULED, MatchStatus.VOID)
# How a match's status moves (players.audit.transitions). A match waits for its sides, is
# scheduled once both are known, in progress once a game counts, and final when its games decide
# it, a walkover or a deadline settles it, or a ruling does. A final match moves again only by a
# ruling (a winner, or void); a ruling upstream empties a side of a match not yet under way,
# which waits again.
MATCH_STATUSES = StatusTable(
    what=_("This match"),
    choices=MatchStatus,
    moves={
        MatchStatus.WAITING: (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS, *_OPEN_TO_FINAL),
        MatchStatus.SCHEDULED: (MatchStatus.WAITING, MatchStatus.IN_PROGRESS, *_OPEN_TO_FINAL),
        MatchStatus.IN_PROGRESS: (MatchStatus.SCHEDULED, *_OPEN_TO_FINAL),
        MatchStatus.DECIDED: (MatchStatus.RULED, MatchStatus.VOID),
        MatchStatus.WALKOVER: (MatchStatus.RULED, MatchStatus.VOID),
        MatchStatus.RULED: (MatchStatus.VOID,),
        MatchStatus.VOID: (MatchStatus.RULED,),
    },
    initial=(MatchStatus.WAITING, MatchStatus.SCHEDULED),
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


register_status_table(Match, MATCH_STATUSES)


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
