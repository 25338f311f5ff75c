"""Forecasts from the tournament Elo: a game, a match, a knockout, a Swiss event; and how good
forecasts were. Pure Python like the rest of `tournaments.formats`; the model and its reasons
are in docs/ratings.md, "Forecasts"."""

from .game import (
    FORECAST_PARAMS,
    GAME_TENTHS,
    ForecastParams,
    GameModel,
    pair_rating,
    tenths,
)
from .knockout import KnockoutForecast, KnockoutMatch, knockout_forecast
from .match import ChanceTable, MatchFormat, MatchProgress, match_chance, sample_match
from .scoring import CalibrationBin, Evaluation, Scored, evaluate
from .swiss import SwissEntrant, SwissForecast, SwissOpenMatch, swiss_forecast

__all__ = [
    "FORECAST_PARAMS",
    "GAME_TENTHS",
    "CalibrationBin",
    "ChanceTable",
    "Evaluation",
    "ForecastParams",
    "GameModel",
    "KnockoutForecast",
    "KnockoutMatch",
    "MatchFormat",
    "MatchProgress",
    "Scored",
    "SwissEntrant",
    "SwissForecast",
    "SwissOpenMatch",
    "evaluate",
    "knockout_forecast",
    "match_chance",
    "pair_rating",
    "sample_match",
    "swiss_forecast",
    "tenths",
]
