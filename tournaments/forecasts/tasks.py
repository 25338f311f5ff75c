"""The forecast's task: a Swiss event's simulation, out of the pages' way."""

from __future__ import annotations

from celery import shared_task

from tournaments.forecasts import services


@shared_task(name="tournaments.forecasts.tasks.forecast_event", acks_late=True)
def forecast_event(event_id: int) -> bool:
    """Work out an event's forecast for its results as they stand and cache it.

    No retries: the next read of the event's pages publishes it again if it is still missing,
    and a duplicate only repeats a computation whose result is the same (seeded)."""
    return services.event_forecast_store(event_id=event_id) is not None


@shared_task(name="tournaments.forecasts.tasks.evaluate_forecasts", acks_late=True)
def evaluate_forecasts() -> bool:
    """Beat task: test the forecasts on the stored history again and store the evaluation,
    whose verdict decides whether pages show forecasts (as `manage.py forecast_history` does).

    No retries: beat runs it again on schedule; a duplicate adds one more row with the same
    figures."""
    return services.forecast_evaluation_run().better
