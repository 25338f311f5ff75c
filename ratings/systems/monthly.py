"""The monthly table: the lobby maths, restarted at 700 for everyone on the 1st of each month.

A rating in this table belongs to a period ("2026-11"); the first game of a new period starts
from ``MONTHLY_PARAMS.start`` whatever the player reached the month before. Which clock decides
the month (UTC, or the site's time zone) is the caller's: pass the game's date in that zone.
"""

from __future__ import annotations

from datetime import date

from .lobby import MONTHLY_PARAMS, LobbyParams

__all__ = ["monthly_rating", "period_key"]


def period_key(day: date) -> str:
    """The monthly period a game played on ``day`` belongs to, e.g. ``"2026-11"``.

    A ``datetime`` is accepted too (it is a ``date``); only its year and month count, so make it
    local to the site's zone first.
    """
    return f"{day.year:04d}-{day.month:02d}"


def monthly_rating(
    rating: float | None,
    rating_period: str | None,
    period: str,
    params: LobbyParams = MONTHLY_PARAMS,
) -> float:
    """The monthly rating a player brings to a game in ``period``.

    ``rating`` is the player's latest monthly rating and ``rating_period`` the period it was
    earned in (both None if they never played in this table). A rating from another period is
    stale: the player restarts at ``params.start``.
    """
    if rating is None or rating_period != period:
        return params.start
    return rating
