"""The stored evaluations of the forecasts: the latest one decides whether pages show any.

Its table is `tournaments_forecastevaluation`.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class ForecastEvaluation(models.Model):
    """How the forecasts did on the stored history, as `manage.py forecast_history` measured it
    (docs/ratings.md, "Forecasts"). Append-only: each run adds one; the latest counts."""

    created = models.DateTimeField(default=timezone.now)
    games = models.PositiveIntegerField()
    # Games where the two ratings differed (the rest were forecast at 50 %).
    decisive = models.PositiveIntegerField()
    brier = models.FloatField()
    log_loss = models.FloatField()
    coin_brier = models.FloatField()
    coin_log_loss = models.FloatField()
    favourite_brier = models.FloatField()
    favourite_log_loss = models.FloatField()
    hit_rate = models.FloatField()
    # The mean gain per forecast over the coin flip and its standard error (none with fewer
    # than two forecasts).
    brier_gain = models.FloatField()
    brier_gain_error = models.FloatField(null=True, blank=True)
    log_gain = models.FloatField()
    log_gain_error = models.FloatField(null=True, blank=True)
    # Beat the coin flip on both scores by more than two standard errors: then pages show them.
    better = models.BooleanField()
    # The same for whole matches (singles), the calibration tables, and the model's constants.
    figures = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games__gte=models.F("decisive")),
                name="forecast_evaluation_decisive_within_games",
            ),
        ]

    def __str__(self) -> str:
        return f"forecast evaluation {self.pk} ({self.games} games)"
