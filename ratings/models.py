"""Ratings: current standings, the append-only history that explains them, reviews and titles.

`RatingChange` is append-only: the services only ever insert it, and on PostgreSQL a trigger
(migration 0002) refuses any UPDATE or DELETE. Audit entries go to the one trail
(`players.AuditEntry`), with the actions of `AuditAction` below registered there. A reverted
change stays; its compensating change points at it through `reverts` (one-to-one, so a change
is reverted at most once), and `change.reverted_by` reads the other way.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game
from players.audit.registry import register_audit_actions
from players.models import Player
from ratings.params import current_version


class RatingSystem(models.TextChoices):
    LOBBY = "lobby", _("Lobby ranking")
    MONTHLY = "monthly", _("Monthly table")
    DOUBLES = "doubles", _("Doubles table")
    MASTER = "master", _("Master ranking")
    ELO = "elo", _("Tournament Elo")


# Tables moved game by game (the rest, the Elo, moves per tournament).
PER_GAME_SYSTEMS = (
    RatingSystem.LOBBY,
    RatingSystem.MONTHLY,
    RatingSystem.DOUBLES,
    RatingSystem.MASTER,
)
# Tables on the 0-1000 scale.
SCALED_SYSTEMS = PER_GAME_SYSTEMS


class ChangeReason(models.TextChoices):
    GAME = "game", pgettext_lazy("rating change cause", "Game")
    REVERT = "revert", pgettext_lazy("rating change cause", "Revert")
    ADJUSTMENT = "adjustment", _("Manual adjustment")
    TOURNAMENT = "tournament", _("Tournament Elo")
    ANCHOR = "anchor", _("Pool anchoring")
    RECOMPUTE = "recompute", _("Recompute from history")
    REPLAY = "replay", _("Recalculated in game order")


class Rating(models.Model):
    """A player's current standing in one table (derived: the sum of their changes)."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ratings")
    system = models.CharField(max_length=8, choices=RatingSystem.choices)
    # Full double precision: a rounded rating would make a recompute disagree (docs/ratings.md).
    value = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    # Monthly table only: the "YYYY-MM" the value was earned in; games counts that month only.
    period = models.CharField(max_length=7, blank=True)
    last_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["system", "-value", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "system"], name="rating_one_per_system"),
            models.CheckConstraint(
                condition=Q(system__in=[s.value for s in RatingSystem]),
                name="rating_system_known",
            ),
            models.CheckConstraint(
                condition=Q(system=RatingSystem.ELO) | Q(value__gte=0.0, value__lte=1000.0),
                name="rating_scaled_within_0_1000",
            ),
            models.CheckConstraint(
                condition=(Q(system=RatingSystem.MONTHLY) & ~Q(period=""))
                | (~Q(system=RatingSystem.MONTHLY) & Q(period="")),
                name="rating_period_iff_monthly",
            ),
        ]
        indexes = [models.Index(fields=["system", "-value"], name="rating_system_value")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.system} {self.value:.1f}"


class RatingChange(models.Model):
    """One move of one player's rating in one table, with its cause. Append-only."""

    # Every row goes into each of the table's indexes: a recompute writes a million rows a table
    # for 500,000 games, so no index is kept that another one serves (the player's lookups
    # use change_player_system) or that no query uses (created), and columns that most rows
    # leave null (actor, tournament event, origin) are indexed only where set
    # (docs/ratings.md §11).
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="rating_changes", db_index=False
    )
    system = models.CharField(max_length=8, choices=RatingSystem.choices)
    reason = models.CharField(max_length=10, choices=ChangeReason.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="rating_changes"
    )
    # Tournament Elo: the tournament event (a plain id, as on Game).
    event_id = models.BigIntegerField(null=True, blank=True)
    period = models.CharField(max_length=7, blank=True)
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    games_delta = models.SmallIntegerField(default=0)
    reverts = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reverted_by"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rating_changes_made",
        db_index=False,
    )
    note = models.TextField(blank=True)
    # The parameter set in force when the change was written (ratings/params.py).
    params_version = models.PositiveSmallIntegerField(default=current_version)
    created = models.DateTimeField(default=timezone.now)  # nothing looks changes up by it
    # The timeline of a game-by-game table (docs/ratings.md §10): the event's place in game order
    # (a game's played time, an adjustment's time; null for the Elo and for the legacy rows of
    # migration 0007), the player's games count after it, the version of the same event this row
    # supersedes (a replay after a late game or a revert writes a new version, never an edit),
    # and the event's first version (a game's or an adjustment's own row).
    at = models.DateTimeField(null=True, blank=True)
    games_after = models.PositiveIntegerField(null=True, blank=True)
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    origin = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=False
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            # Exactly once per game and table, whatever delivers the game twice.
            models.UniqueConstraint(
                fields=["game", "player", "system"],
                condition=Q(reason=ChangeReason.GAME),
                name="rating_change_once_per_game_system",
            ),
            models.CheckConstraint(
                condition=~Q(reason=ChangeReason.GAME) | Q(game__isnull=False),
                name="rating_change_game_has_game",
            ),
            models.CheckConstraint(
                condition=(Q(reason=ChangeReason.REVERT) & Q(reverts__isnull=False))
                | (~Q(reason=ChangeReason.REVERT) & Q(reverts__isnull=True)),
                name="rating_change_revert_iff_reverts",
            ),
            models.CheckConstraint(
                condition=~Q(reason=ChangeReason.ADJUSTMENT) | ~Q(note=""),
                name="rating_change_adjustment_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(reason__in=[r.value for r in ChangeReason]),
                name="rating_change_reason_known",
            ),
            # A recalculated version always names the version it supersedes and its event.
            models.CheckConstraint(
                condition=~Q(reason=ChangeReason.REPLAY)
                | (Q(replaces__isnull=False) & Q(origin__isnull=False)),
                name="rating_change_replay_replaces",
            ),
            models.CheckConstraint(
                condition=Q(system__in=[s.value for s in RatingSystem]),
                name="rating_change_system_known",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "system", "id"], name="change_player_system"),
            models.Index(fields=["system", "reason", "game"], name="change_system_reason_game"),
            models.Index(fields=["system", "at"], name="change_timeline"),
            models.Index(fields=["system", "player", "at"], name="change_player_timeline"),
            models.Index(
                fields=["actor"], condition=Q(actor__isnull=False), name="change_actor_set"
            ),
            models.Index(
                fields=["event_id"], condition=Q(event_id__isnull=False), name="change_event_set"
            ),
            models.Index(
                fields=["origin"], condition=Q(origin__isnull=False), name="change_origin_set"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.system} {self.delta:+.2f} ({self.reason})"

    @property
    def is_reverted(self) -> bool:
        try:
            return self.reverted_by is not None
        except RatingChange.DoesNotExist:
            return False


class PendingRating(models.Model):
    """A game announced to the ratings and not applied yet: the apply task's work list.

    Written when the game is announced (after adjudication commits), deleted in the transaction
    that applies it, so finding the pending games costs O(pending), not a scan of every recent
    game. Not the source of truth: exactly-once rests on the locks and the unique constraint on
    `RatingChange`, and the sweep still applies any unrated game of its window that was never
    announced (docs/ratings.md §10).
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    played_at = models.DateTimeField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["played_at", "game"]
        indexes = [models.Index(fields=["played_at", "game"], name="pending_rating_game_order")]

    def __str__(self) -> str:
        return f"pending game {self.game_id}"


class ReviewKind(models.TextChoices):
    LARGE_SWING = "large_swing", _("Large swing")
    GAME_INVALIDATED = "game_invalidated", _("Game later ruled or invalidated")
    REPEATED_RESULTS = "repeated_results", _("Repeated results between the same two players")
    TITLE_LAPSE = "title_lapse", _("Master title lapsed")


class ReviewStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("review status", "Open")
    # Stored "approved" since the first queue: the ratings were kept as they are.
    APPROVED = "approved", _("Acknowledged")
    REVERTED = "reverted", _("Reverted")
    ADJUSTED = "adjusted", _("Adjusted")


class Title(models.Model):
    """A Master title: awarded by an admin, withdrawn by an admin (after a lapse or otherwise)."""

    class Kind(models.TextChoices):
        MASTER = "master", pgettext_lazy("title", "Master")

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("title status", "Held")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        LAPSED = "lapsed", _("Lapsed")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="titles")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MASTER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    awarded_at = models.DateTimeField(default=timezone.now)
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="titles_awarded",
    )
    note = models.TextField(blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="titles_ended",
    )
    end_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-awarded_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "kind"],
                condition=Q(status="active"),
                name="title_one_held_per_player_kind",
            ),
            models.CheckConstraint(
                condition=(Q(status="active") & Q(ended_at__isnull=True))
                | (~Q(status="active") & Q(ended_at__isnull=False)),
                name="title_ended_iff_not_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.player_id} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Review(models.Model):
    """A flag for an admin: on a change (and its game), or on a player (a title lapse)."""

    kind = models.CharField(max_length=20, choices=ReviewKind.choices)
    status = models.CharField(
        max_length=10, choices=ReviewStatus.choices, default=ReviewStatus.OPEN, db_index=True
    )
    change = models.ForeignKey(
        RatingChange, null=True, blank=True, on_delete=models.PROTECT, related_name="reviews"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="rating_reviews"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="rating_reviews"
    )
    title = models.ForeignKey(
        Title, null=True, blank=True, on_delete=models.PROTECT, related_name="reviews"
    )
    detail = models.JSONField(default=dict, blank=True)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rating_reviews_done",
    )
    note = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(change__isnull=False) | Q(player__isnull=False),
                name="review_on_change_or_player",
            ),
            models.CheckConstraint(
                condition=(Q(status=ReviewStatus.OPEN) & Q(resolved_at__isnull=True))
                | (~Q(status=ReviewStatus.OPEN) & Q(resolved_at__isnull=False)),
                name="review_resolved_iff_closed",
            ),
            # Flagging is idempotent: a change is flagged once per kind, a game once as
            # invalidated, and a title has at most one open lapse flag.
            models.UniqueConstraint(
                fields=["kind", "change"],
                condition=Q(change__isnull=False),
                name="review_once_per_change_kind",
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(kind=ReviewKind.GAME_INVALIDATED),
                name="review_once_per_invalidated_game",
            ),
            models.UniqueConstraint(
                fields=["title"],
                condition=Q(kind=ReviewKind.TITLE_LAPSE, status=ReviewStatus.OPEN),
                name="review_one_open_lapse_per_title",
            ),
        ]

    def __str__(self) -> str:
        return f"review {self.pk} {self.kind} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == ReviewStatus.OPEN


class AuditAction(models.TextChoices):
    REVIEW_FLAG = "review_flag", _("Flagged for review")
    REVIEW_APPROVE = "review_approve", _("Review acknowledged")
    REVIEW_REVERT = "review_revert", _("Review: reverted")
    REVIEW_ADJUST = "review_adjust", _("Review: adjusted")
    GAME_REVERT = "game_revert", _("Game's rating changes reverted")
    CHANGE_REVERT = "change_revert", _("Change reverted")
    ADJUSTMENT = "adjustment", _("Manual adjustment")
    TITLE_AWARD = "title_award", _("Title awarded")
    TITLE_WITHDRAW = "title_withdraw", _("Title withdrawn")
    RECOMPUTE = "recompute", _("Recompute from history")
    ELO_RECALCULATE = "elo_recalculate", _("Tournament Elo recalculated")
    RESULT_REPLAY = "result_replay", _("Game's new result replayed")


register_audit_actions(AuditAction, area="ratings", label=_("Ratings"))


class EloStanding(models.Model):
    """A player's Elo result in one tournament event: what they brought and what it made.

    Derived data, rewritten when the event is recalculated (the audit trail is the
    `RatingChange` rows of reason "tournament"); it keeps the standing brought to the event so a
    recalculation while the event is still running starts from the same place.
    """

    event_id = models.BigIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="elo_standings")
    rating_before = models.FloatField()
    games_before = models.PositiveIntegerField()
    rating_after = models.FloatField()
    games_after = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    share = models.FloatField()
    expected_share = models.FloatField()
    performance = models.FloatField()
    opposition_average = models.FloatField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event_id", "-rating_after"]
        constraints = [
            models.UniqueConstraint(fields=["event_id", "player"], name="elo_standing_once"),
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} player {self.player_id}"


class EloEvent(models.Model):
    """When a tournament event's Elo was last calculated, and from which games."""

    event_id = models.BigIntegerField(primary_key=True)
    fingerprint = models.CharField(max_length=80)
    games = models.PositiveIntegerField(default=0)
    first_played_at = models.DateTimeField(null=True, blank=True)
    calculated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["first_played_at", "event_id"]

    def __str__(self) -> str:
        return f"elo event {self.event_id}"


class RecomputeRun(models.Model):
    """A recompute asked for by staff (web or API) and run by a Celery task.

    Its state is committed outside the recompute's own transaction, so it can be read while
    the recompute runs; the progress within a table (events replayed so far) lives in the
    ``ratings`` cache, because the recompute's writes are not visible until it commits.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    systems = models.JSONField(default=list)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rating_recomputes",
    )
    created = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"recompute {self.pk} ({self.status})"
