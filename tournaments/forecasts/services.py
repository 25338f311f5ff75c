"""Writes of the forecasts: an event's forecast worked out and cached, and an evaluation of the
forecasts on the stored history, stored so that it decides what pages show.

An event's forecast is worked out once per results version, whoever asks first: a knockout at
once (a 128 bracket costs about a tenth of a second, `make bench`), a Swiss event by a task
(seconds of simulation, too long for a page), which the first read after a result publishes;
until it has run, pages show no Swiss forecast and the API says it is being worked out.
"""

from __future__ import annotations

from dataclasses import asdict
from math import isfinite

from django.db import transaction

from tantrix_site.queueing import publish_once
from tournaments.forecasts import history
from tournaments.forecasts.events import EventForecast, forecastable, knockout_event, swiss_event
from tournaments.forecasts.selectors import (
    cached_forecast,
    forecast_queued_key,
    forget_shown_evaluation,
    results_version,
    store_forecast,
)
from tournaments.forecasts.sides import forecast_params
from tournaments.formats.forecast import Evaluation
from tournaments.models import Event, EventFormat, ForecastEvaluation

FORECAST_TASK = "tournaments.forecasts.tasks.forecast_event"


def event_forecast_store(*, event_id: int) -> EventForecast | None:
    """Work out the event's forecast for its results as they stand and cache it (the version is
    read first: results counted meanwhile bump it, and their own task works them out)."""
    event = Event.objects.select_related("championship").filter(pk=event_id).first()
    if event is None or not forecastable(event):
        return None
    found = cached_forecast(event)
    if found is not None:
        return found
    version = results_version(event)
    forecast = knockout_event(event) if event.format == EventFormat.KNOCKOUT else swiss_event(event)
    store_forecast(event, version, forecast)
    return forecast


def event_forecast(event: Event) -> EventForecast | None:
    """The event's forecast as its results stand: None when the event has none (not a
    knockout or a Swiss event in play) or while a Swiss forecast is being worked out."""
    if not forecastable(event):
        return None
    version = results_version(event)
    found = cached_forecast(event)
    if found is not None:
        return found
    if event.format == EventFormat.KNOCKOUT:
        forecast = knockout_event(event)
        store_forecast(event, version, forecast)
        return forecast
    publish_once(forecast_queued_key(event, version), FORECAST_TASK, event.pk)
    # With tasks run in-process (make run, the tests) it is there already.
    return cached_forecast(event)


def _finite(value: float) -> float | None:
    """JSON (and a reader) has no infinity: an error too large to know is None."""
    return value if isfinite(value) else None


def _row(evaluation: Evaluation) -> dict:
    return {
        "games": evaluation.count,
        "decisive": evaluation.decisive,
        "brier": evaluation.forecast.brier,
        "log_loss": evaluation.forecast.log_loss,
        "coin_brier": evaluation.coin.brier,
        "coin_log_loss": evaluation.coin.log_loss,
        "favourite_brier": evaluation.favourite.brier,
        "favourite_log_loss": evaluation.favourite.log_loss,
        "hit_rate": evaluation.hit_rate,
        "brier_gain": evaluation.brier_gain.mean,
        "brier_gain_error": _finite(evaluation.brier_gain.standard_error),
        "log_gain": evaluation.log_gain.mean,
        "log_gain_error": _finite(evaluation.log_gain.standard_error),
        "better": evaluation.better_than_coin,
        "calibration": [asdict(b) for b in evaluation.calibration],
    }


@transaction.atomic
def forecast_evaluation_store(*, report: history.HistoryReport) -> ForecastEvaluation:
    """Store an evaluation; from now on it decides whether pages show forecasts. The verdict
    is the games' (the unit the model forecasts); the matches' figures are kept beside it."""
    games = _row(report.games)
    params = forecast_params()
    figures = {
        "calibration": games.pop("calibration"),
        "matches": _row(report.matches),
        "skipped_games": report.skipped_games,
        "measured_spread": report.measured_spread,
        "params": {"scale": params.scale, "spread": params.spread, "unrated": params.unrated},
    }
    games["better"] = report.games.better_than_coin
    stored = ForecastEvaluation.objects.create(**games, figures=figures)
    # Every page asks whether forecasts are shown; the answer they cache changes now.
    transaction.on_commit(forget_shown_evaluation)
    return stored


def forecast_evaluation_run() -> ForecastEvaluation:
    """Replay the stored history as forecasts and store the evaluation (the beat task's work)."""
    return forecast_evaluation_store(report=history.history_report())
