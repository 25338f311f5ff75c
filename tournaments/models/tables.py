"""Table opens: a face-to-face game's result as its score sheet says, typed by a controller."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.matches import Match


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
