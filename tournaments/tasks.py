from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.utils import timezone

from tournaments import selectors, services


@shared_task(name="tournaments.tasks.process_deadlines", acks_late=True)
def process_deadlines() -> int:
    """Beat task: settle matches whose round deadline passed.

    No retry policy of its own: beat runs it again on schedule and each round is settled once
    (rows are locked and marked processed in the same transaction).
    """
    return services.deadlines_process()


@shared_task(name="tournaments.tasks.sweep_uncounted_games", acks_late=True)
def sweep_uncounted_games() -> int:
    """Beat task: count tournament games whose counting was lost (e.g. a worker died).

    Idempotent: a game already counted is skipped by the service, so overlap is harmless.
    """
    since = timezone.now() - dt.timedelta(days=7)
    counted = 0
    for game_id in selectors.unattached_tournament_games(since=since):
        if services.match_game_attach(game_id=game_id) is not None:
            counted += 1
    return counted


# The rooms' tasks, registered with the worker through this module (Celery discovers tasks.py).
from tournaments.arrangements.tasks import accept_unanswered_proposals  # noqa: E402, F401
from tournaments.calendars.tasks import send_reminders  # noqa: E402, F401
from tournaments.forecasts.tasks import evaluate_forecasts, forecast_event  # noqa: E402, F401
