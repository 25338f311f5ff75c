"""Reads of the forecasts: whether they are shown, an event's forecast as its results stand,
and an open match's chances.

Shown only when the latest stored evaluation found them better than a coin flip on the history
(`ForecastEvaluation.better`; `manage.py forecast_history` stores one): otherwise pages show no
forecast at all and the API says why. An event's forecast is cached under the event's results
version (`tournaments.pages.cache.versions`, bumped whenever a result counts), so it is worked out
once per result whoever reads it (`services.event_forecast`).
"""

from __future__ import annotations

import logging

from django.core.cache import caches
from django.db import connection

from tantrix_site.queueing import QueuedKey
from tournaments.forecasts.events import EventForecast, forecastable, match_chances
from tournaments.forecasts.sides import forecast_params
from tournaments.models import Event, EventFormat, ForecastEvaluation, Match
from tournaments.pages.cache import versions

logger = logging.getLogger(__name__)

CACHE = "pages"  # shared by every web and worker process, like the pages' fragments
FORECAST_CACHE_SECONDS = 3600


def latest_evaluation() -> ForecastEvaluation | None:
    return ForecastEvaluation.objects.order_by("-created", "-id").first()


def evaluation_key() -> str:
    return f"tantrix:forecast:{connection.settings_dict['NAME']}:evaluation"


def shown_evaluation() -> ForecastEvaluation | None:
    """The evaluation that lets pages show forecasts, or None: none stored yet, or the latest
    did not beat the coin flip. Cached (every page asks): storing an evaluation replaces it."""
    try:
        found = caches[CACHE].get(evaluation_key())
    except Exception:  # noqa: BLE001 - a cache outage never fails a page
        found = None
    if found is None:
        latest = latest_evaluation()
        found = (latest,) if latest is not None and latest.better else (None,)
        try:
            caches[CACHE].set(evaluation_key(), found, timeout=FORECAST_CACHE_SECONDS)
        except Exception:  # noqa: BLE001
            logger.warning("forecast cache unreachable", exc_info=True)
    return found[0]


def forget_shown_evaluation() -> None:
    try:
        caches[CACHE].delete(evaluation_key())
    except Exception:  # noqa: BLE001 - it expires by itself
        logger.warning("forecast cache unreachable", exc_info=True)


def _key(event: Event, version: str) -> str:
    params = forecast_params()
    return (
        f"tantrix:forecast:{connection.settings_dict['NAME']}:{event.pk}:{version}:"
        f"{params.scale}:{params.spread}:{params.unrated}"
    )


def results_version(event: Event) -> str:
    """The event's results version (the pages' version tokens), which a result bumps."""
    return versions(championship_id=event.championship_id, event_id=event.pk)


def cached_forecast(event: Event) -> EventForecast | None:
    """The event's forecast for its results as they stand, if it has been worked out."""
    try:
        return caches[CACHE].get(_key(event, results_version(event)))
    except Exception:  # noqa: BLE001 - a cache outage never fails a page
        logger.warning("forecast cache unreachable", exc_info=True)
        return None


def store_forecast(event: Event, version: str, forecast: EventForecast) -> None:
    try:
        caches[CACHE].set(_key(event, version), forecast, timeout=FORECAST_CACHE_SECONDS)
    except Exception:  # noqa: BLE001
        logger.warning("forecast cache unreachable; forecast not stored", exc_info=True)


def forecast_queued_key(event: Event, version: str) -> QueuedKey:
    return QueuedKey(CACHE, f"forecast:{event.pk}:{version}", 300.0)


def forecast_state(event: Event) -> str:
    """A token of what an event's page shows of its forecast (the cached fragments' name
    carries it): which evaluation lets forecasts show, and whether the event's forecast for
    its results is ready yet, so a page built before it was ready is not kept after."""
    shown = shown_evaluation()
    if shown is None:
        return "off"
    if not forecastable(event) or event.format != EventFormat.SWISS:
        return f"e{shown.pk}"  # a knockout's forecast is worked out as its page is built
    return f"e{shown.pk}{'r' if cached_forecast(event) is not None else 'p'}"


def match_forecast(match: Match) -> tuple[float, float] | None:
    """Each side's chance in an open match, when forecasts are shown and both sides known."""
    if shown_evaluation() is None:
        return None
    return match_chances(match)
