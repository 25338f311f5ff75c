from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.fields import DocumentField
from players.audit.registry import register_audit_actions
from players.audit.transitions import StatusTable, register_status_table
from players.models import Colour, Player


class RecordStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    PROCESSING = "processing", _("Processing")
    VALID = "valid", _("Valid")
    INVALID = "invalid", _("Invalid")


class RecordSource(models.TextChoices):
    WEB = "web", _("Web form")
    API = "api", _("API")
    IMPORT = "import", pgettext_lazy("record source", "Import")
    SCORE_SHEET = "sheet", _("Score sheet")


class GameRecord(models.Model):
    """A game record exactly as submitted, and what adjudication made of it.

    Nothing submitted is ever thrown away: a body that is not even JSON is stored and marked
    invalid with the reason, so a player can always see what they sent and why it failed.
    """

    body = models.BinaryField(
        help_text=_(
            "The submitted bytes, unchanged; only the first GAME_RECORD_MAX_BYTES of a "
            "body refused as too large."
        )
    )
    # The size and SHA-256 of everything that was sent, so a record refused as too large (and
    # kept only in part) still says what arrived. The hash is empty when the body was so large
    # that it was not read at all (over REQUEST_MAX_BYTES).
    body_size = models.PositiveBigIntegerField(default=0)
    body_sha256 = models.CharField(max_length=64, blank=True)
    submitter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_records",
    )
    source = models.CharField(max_length=8, choices=RecordSource.choices)
    status = models.CharField(
        max_length=12, choices=RecordStatus.choices, default=RecordStatus.PENDING, db_index=True
    )
    # Seat index → Player id, resolved from the record's player names at submission.
    seat_players = models.JSONField(default=list, blank=True)
    # What other apps attached to the submission (e.g. {"match": 17}); see games/hooks.py.
    extensions = models.JSONField(default=dict, blank=True)
    verdict = models.JSONField(null=True, blank=True)
    # Which engine wrote the verdict: games.engine.ENGINE_VERSION, plus "+<git revision>" when
    # known (games.engine.version). Empty for verdicts written before versions were stored and
    # for refusals the envelope made without the engine.
    engine_version = models.CharField(max_length=64, blank=True)
    error_code = models.CharField(max_length=32, blank=True)
    error_placement = models.PositiveIntegerField(null=True, blank=True)
    error_message = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    adjudicated_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=[s.value for s in RecordStatus]),
                name="record_status_known",
            ),
        ]
        indexes = [models.Index(fields=["status", "created"], name="record_status_created")]

    def __str__(self) -> str:
        return f"record {self.pk} ({self.status})"

    @property
    def body_bytes(self) -> bytes:
        return bytes(self.body or b"")

    @property
    def body_text(self) -> str:
        return self.body_bytes.decode("utf-8", errors="replace")

    @property
    def is_final(self) -> bool:
        return self.status in (RecordStatus.VALID, RecordStatus.INVALID)


class GameContext(models.TextChoices):
    """Where a game was played. `tournaments` writes TOURNAMENT for a game counted for a match.

    MASTER: `ratings` rates such a game in the Master table even when its players hold no
    Master title. No service writes it today; only the Django admin's Game form can set it, and
    a game already rated is not rated again when it changes (see the issue 10 note).
    """

    CASUAL = "casual", _("Casual")
    TOURNAMENT = "tournament", _("Tournament")
    MASTER = "master", pgettext_lazy("game context", "Master")


class EndReason(models.TextChoices):
    COMPLETED = "completed", _("Completed")
    DEADLOCK = "deadlock", _("Deadlock (draw)")
    RESIGNED = "resigned", _("Resigned")
    TIME = "time", _("Lost on time")


class Game(models.Model):
    """An adjudicated, valid game: created exactly once per valid record."""

    record = models.OneToOneField(GameRecord, on_delete=models.PROTECT, related_name="game")
    players_count = models.PositiveSmallIntegerField()
    is_pairs = models.BooleanField(default=False)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    is_draw = models.BooleanField(default=False)
    end_reason = models.CharField(max_length=10, choices=EndReason.choices)
    placements = DocumentField(help_text=_("The placements, for replay."))
    placements_count = models.PositiveSmallIntegerField()
    turns = models.PositiveSmallIntegerField()
    endgame_from = models.PositiveSmallIntegerField(null=True, blank=True)
    clock = models.JSONField(null=True, blank=True)
    context = models.CharField(
        max_length=10, choices=GameContext.choices, default=GameContext.CASUAL, db_index=True
    )
    # Written by `tournaments`: a plain id, not a foreign key, so `games` never depends upward.
    event_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    played_at = models.DateTimeField(db_index=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~(models.Q(is_draw=True) & models.Q(winner_seat__isnull=False)),
                name="game_draw_has_no_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk}"


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="game_seats")
    colour = models.CharField(max_length=6, choices=Colour.choices)
    score = models.PositiveSmallIntegerField()
    # Tournament points after time penalties; filled by `tournaments` for tournament games.
    tournament_points = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_in_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seat} {self.player_id}"


class ReadjudicationRun(models.Model):
    """One `manage.py readjudicate`: which records it judges again, and how far it has got.

    The checkpoint is ``last_record_id``: records are judged in id order up to ``up_to_record_id``
    (the newest id when the run started), so an interrupted run resumes after the last record
    whose outcome was stored, and never picks up records submitted after it began.
    """

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    since = models.DateField(null=True, blank=True)
    event_id = models.BigIntegerField(null=True, blank=True)
    apply = models.BooleanField(default=False)
    engine_version = models.CharField(max_length=64)
    up_to_record_id = models.BigIntegerField(default=0)
    last_record_id = models.BigIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    started = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started", "-id"]

    def __str__(self) -> str:
        return f"re-adjudication {self.pk} ({self.status})"


class VerdictReview(models.Model):
    """A stored verdict the current engine would judge differently, waiting for staff.

    History is never rewritten silently: re-adjudication opens one of these per changed record,
    and only an approval replaces the stored verdict (and the game's scores and winner).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for review")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="reviews")
    run = models.ForeignKey(
        ReadjudicationRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="reviews"
    )
    old_verdict = models.JSONField(null=True, blank=True)
    new_verdict = models.JSONField()
    old_engine_version = models.CharField(max_length=64, blank=True)
    new_engine_version = models.CharField(max_length=64)
    # What differs, as change kinds of games.verdict_reviews.readjudication (validity, scores,
    # winner, ...).
    changes = models.JSONField(default=list)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="verdict_reviews_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["record"],
                condition=models.Q(status="open"),
                name="verdict_review_one_open_per_record",
            ),
        ]

    def __str__(self) -> str:
        return f"verdict review {self.pk} ({self.status})"


# --- Reports: a result stands only when both sides agree ---------------------------------------


class ResultState(models.TextChoices):
    REPORTED = "reported", _("Waiting for confirmation")
    DISPUTED = "disputed", _("Disputed: waiting for a ruling")
    STANDING = "standing", _("Standing")
    VOID = "void", _("Ruled void: no game")


class ReportKind(models.TextChoices):
    RECORD = "record", _("Game record")
    SCORE_SHEET = "sheet", _("Score sheet")
    RULING = "ruling", _("Ruling")


class ReportRole(models.TextChoices):
    SIDE = "side", _("A player of the game")
    CONTROLLER = "controller", _("The championship's staff")
    STAFF = "staff", _("Site staff")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Waiting for the other side")
    CONFIRMED = "confirmed", _("Confirmed by the other side")
    AUTO_CONFIRMED = "auto_confirmed", _("Confirmed automatically: nobody answered in time")
    CONFIRMATION = "confirmation", _("The same game from the other side: a confirmation")
    DISPUTED = "disputed", _("Disputed")
    RULED = "ruled", _("Ruling")
    SUPERSEDED = "superseded", _("Replaced by a later version")


class ReportedGame(models.Model):
    """One game as its sides report it: its versions (reports, rulings) and what stands.

    The `Game` row exists only once a result stands, so everything that reads games (match
    counting, ratings, game lists) sees agreed results only. Records of the same game, whoever
    sent them, meet here through `fingerprint` (games/reports/fingerprint.py), unique in the
    database.
    """

    # The canonical SHA-256 of who played, the hands, the bag and the placements; empty for a
    # game known only from score sheets.
    fingerprint = models.CharField(max_length=64, blank=True)
    seat_players = models.JSONField(default=list)
    is_pairs = models.BooleanField(default=False)
    # What higher apps attached (e.g. {"match": 17}), from the first report.
    extensions = models.JSONField(default=dict, blank=True)
    # A copy of extensions["match"], indexed: a score sheet finds the report it answers by it.
    match_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    state = models.CharField(
        max_length=10, choices=ResultState.choices, default=ResultState.REPORTED, db_index=True
    )
    played_at = models.DateTimeField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="reported"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["fingerprint"],
                condition=~models.Q(fingerprint=""),
                name="reported_game_one_per_fingerprint",
            ),
            models.CheckConstraint(
                condition=models.Q(state__in=[s.value for s in ResultState]),
                name="reported_game_state_known",
            ),
        ]

    def __str__(self) -> str:
        return f"reported game {self.pk} ({self.state})"


class GameReport(models.Model):
    """One version of a game's result: a side's report, or a ruling. Kept forever.

    Only its answer (status, who answered, when, why) changes after it is written.
    """

    reported_game = models.ForeignKey(
        ReportedGame, on_delete=models.CASCADE, related_name="versions"
    )
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=ReportKind.choices)
    role = models.CharField(max_length=10, choices=ReportRole.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_reports",
    )
    # The player whose side this report is (side reports only).
    side_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="game_reports"
    )
    record = models.OneToOneField(
        GameRecord, null=True, blank=True, on_delete=models.PROTECT, related_name="report"
    )
    # A ruling names the version whose result it lets stand (empty: the game is void).
    based_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The result this version states, per seat; empty for a ruling that voids the game.
    scores = models.JSONField(default=list, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, blank=True)
    minutes = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=ReportStatus.choices)
    standing = models.BooleanField(default=False)
    reason = models.TextField(blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    answer_note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["reported_game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["reported_game", "number"], name="report_version_number_unique"
            ),
            models.UniqueConstraint(
                fields=["reported_game", "side_player"],
                condition=models.Q(status="open"),
                name="report_one_open_per_side",
            ),
            models.UniqueConstraint(
                fields=["reported_game"],
                condition=models.Q(standing=True),
                name="report_one_standing_per_game",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[s.value for s in ReportStatus]),
                name="report_status_known",
            ),
            models.CheckConstraint(
                condition=~models.Q(role="side") | models.Q(side_player__isnull=False),
                name="report_side_names_its_player",
            ),
        ]

    def __str__(self) -> str:
        return f"version {self.number} of {self.reported_game_id} ({self.status})"


# How a reported game's result moves (players.audit.transitions). A fresh game waits for its
# other side, or stands at once (staff, a controller, a casual game no rating takes); the other
# side's answer lets it stand or disputes it; a ruling lets a version stand or voids the game;
# an organiser reopens a ruling (standing or void), and the game waits for a new ruling; a
# ruling-level submission lets a result stand whatever the game waited for.
RESULT_STATES = StatusTable(
    what=_("This game's result"),
    choices=ResultState,
    field="state",
    moves={
        ResultState.REPORTED: (ResultState.STANDING, ResultState.DISPUTED, ResultState.VOID),
        ResultState.DISPUTED: (ResultState.STANDING, ResultState.VOID),
        ResultState.STANDING: (ResultState.DISPUTED,),
        ResultState.VOID: (ResultState.DISPUTED, ResultState.STANDING),
    },
    initial=(ResultState.REPORTED, ResultState.STANDING),
)
register_status_table(ReportedGame, RESULT_STATES)

# How one version's status moves. A version is written in its final status except one that
# waits for the other side (open), which is confirmed (by the other side, or by the overdue
# sweep), disputed, or superseded (by its side's next version, or by a result that stands);
# a confirmation whose result differs from the version it answers disputes it, and is disputed.
REPORT_STATUSES = StatusTable(
    what=_("This report"),
    choices=ReportStatus,
    moves={
        ReportStatus.OPEN: (
            ReportStatus.CONFIRMED,
            ReportStatus.AUTO_CONFIRMED,
            ReportStatus.DISPUTED,
            ReportStatus.SUPERSEDED,
        ),
        ReportStatus.CONFIRMATION: (ReportStatus.DISPUTED,),
        ReportStatus.CONFIRMED: (),
        ReportStatus.AUTO_CONFIRMED: (),
        ReportStatus.DISPUTED: (),
        ReportStatus.RULED: (),
        ReportStatus.SUPERSEDED: (),
    },
    initial=(
        ReportStatus.OPEN,
        ReportStatus.CONFIRMED,
        ReportStatus.CONFIRMATION,
        ReportStatus.DISPUTED,
        ReportStatus.RULED,
    ),
)
register_status_table(GameReport, REPORT_STATUSES)


class AuditAction(models.TextChoices):
    """What the audit trail records of reports (players.audit.registry)."""

    REPORT_RULE = "report_rule", _("Game result ruled")
    REPORT_REOPEN = "report_reopen", _("Ruled game result reopened")
    REPORT_CONFIRM_FOR = "report_confirm_for", _("Report confirmed for a player without an account")


register_audit_actions(AuditAction, area="games", label=_("Game results"))
