"""Stored evaluations and rated players for the forecast tests."""

from __future__ import annotations

from ratings.models import Rating, RatingSystem
from tournaments.forecasts import selectors
from tournaments.models import ForecastEvaluation


def evaluation(*, better: bool, games: int = 400) -> ForecastEvaluation:
    """An evaluation as the history command stores one (its figures beside the point here)."""
    stored = ForecastEvaluation.objects.create(
        games=games,
        decisive=games // 2,
        brier=0.21 if better else 0.26,
        log_loss=0.61 if better else 0.72,
        coin_brier=0.25,
        coin_log_loss=0.6931,
        favourite_brier=0.23,
        favourite_log_loss=0.66,
        hit_rate=0.6,
        brier_gain=0.04 if better else -0.01,
        brier_gain_error=0.005,
        log_gain=0.08 if better else -0.03,
        log_gain_error=0.01,
        better=better,
    )
    selectors.forget_shown_evaluation()  # what the service does once its transaction commits
    return stored


def rate(player, value: float, games: int = 40) -> None:
    """Give a player a tournament Elo rating (the Elo's Rating row, as its tests seed it)."""
    Rating.objects.update_or_create(
        player=player, system=RatingSystem.ELO, defaults={"value": value, "games": games}
    )
