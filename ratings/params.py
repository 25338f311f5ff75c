"""The rating systems' parameters, built from settings (names in docs/ratings.md §8).

Built on every call rather than cached at import, so a test's ``settings`` override (or a
recompute after a settings change) sees the current values; building a frozen dataclass is a
few microseconds. ``check_settings`` runs at start-up from ``RatingsConfig.ready`` so a bad
value stops the process instead of failing mid-recompute.
"""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ratings.systems import EloParams, LobbyParams, MasterTitleParams


def lobby_params() -> LobbyParams:
    return LobbyParams(
        start=settings.RATINGS_LOBBY_START,
        k=settings.RATINGS_LOBBY_K,
        margin_cap=settings.RATINGS_LOBBY_MARGIN_CAP,
        ratio_cap=settings.RATINGS_LOBBY_RATIO_CAP,
        gain_drag_exponent=settings.RATINGS_LOBBY_GAIN_DRAG_EXPONENT,
        loss_drag_ceiling=settings.RATINGS_LOBBY_LOSS_DRAG_CEILING,
        robot_weight=settings.RATINGS_LOBBY_ROBOT_WEIGHT,
        draw_margin=settings.RATINGS_LOBBY_DRAW_MARGIN,
    )


def monthly_params() -> LobbyParams:
    return replace(lobby_params(), start=settings.RATINGS_MONTHLY_START)


def doubles_params() -> LobbyParams:
    return replace(lobby_params(), k=settings.RATINGS_DOUBLES_K)


def master_params() -> LobbyParams:
    return replace(
        lobby_params(),
        start=settings.RATINGS_MASTER_START,
        k=settings.RATINGS_MASTER_K,
        drag=False,
    )


def elo_params() -> EloParams:
    return EloParams(
        scale=settings.RATINGS_ELO_SCALE,
        anchor=settings.RATINGS_ELO_ANCHOR,
        initial=settings.RATINGS_ELO_INITIAL,
        memory_games=settings.RATINGS_ELO_MEMORY_GAMES,
        provisional_games=settings.RATINGS_ELO_PROVISIONAL_GAMES,
        performance_cap=settings.RATINGS_ELO_PERFORMANCE_CAP,
    )


def title_params() -> MasterTitleParams:
    return MasterTitleParams(
        min_lobby=settings.RATINGS_MASTER_MIN_LOBBY,
        min_elo_tournaments=settings.RATINGS_MASTER_MIN_ELO_TOURNAMENTS,
        cap=settings.RATINGS_MASTER_CAP,
        games_to_keep=settings.RATINGS_MASTER_GAMES_TO_KEEP,
        window_months=settings.RATINGS_MASTER_WINDOW_MONTHS,
    )


def check_settings() -> None:
    """Build every parameter set once; the dataclasses refuse inconsistent values."""
    for build in (
        lobby_params,
        monthly_params,
        doubles_params,
        master_params,
        elo_params,
        title_params,
    ):
        try:
            build()
        except ValueError as exc:
            raise ImproperlyConfigured(f"ratings settings ({build.__name__}): {exc}") from None
