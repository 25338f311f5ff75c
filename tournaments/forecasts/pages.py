"""What the pages show of the forecasts: the template variables of the event and match pages.

Nothing at all while forecasts are not shown (no evaluation stored, or the latest one did not
beat the coin flip): the templates test `forecast` and `match_forecast` and show nothing
without them.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments.forecasts import selectors, services
from tournaments.format_words import early_round_style
from tournaments.formats.labels import knockout_round_names
from tournaments.models import Event, EventFormat, Match


def event_context(event: Event) -> dict:
    """`forecast` (the event's forecast, or None), `forecast_rounds` (the knockout rounds its
    columns name, in the reader's language) and `forecast_evaluation` (what vouches for it)."""
    evaluation = selectors.shown_evaluation()
    forecast = services.event_forecast(event) if evaluation is not None else None
    if forecast is None:
        return {"forecast": None}
    rounds = []
    if event.format == EventFormat.KNOCKOUT:
        style = early_round_style()
        rounds = [
            knockout_round_names(r, forecast.last_round, gettext=gettext, style=style).short
            for r in forecast.rounds
        ]
    return {
        "forecast": forecast,
        "forecast_rounds": rounds,
        "forecast_evaluation": evaluation,
    }


def match_context(match: Match) -> dict:
    """`match_forecast` (each side's chance, or None) and `forecast_evaluation`."""
    evaluation = selectors.shown_evaluation()
    chances = selectors.match_forecast(match) if evaluation is not None else None
    return {"match_forecast": chances, "forecast_evaluation": evaluation}


def fragment_name(name: str, event: Event) -> str:
    """A cached fragment's name with what it shows of the forecasts (selectors.forecast_state)."""
    return f"{name}:{selectors.forecast_state(event)}"
