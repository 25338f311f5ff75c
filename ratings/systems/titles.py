"""The Master title: who may be awarded it, and when a held title lapses.

Awarding: lobby ranking at least 950, at least one Elo-rated tournament played, and fewer titles
held than the cap (100 or 120 in Tantrix practice; a setting). Keeping: a Master must play
5 Master games (games between Masters) in every 3 months.

Lapse, precisely: a Master game played on day d keeps the title alive from d up to, not
including, d + 3 months. From 3 months after the award (the first 3 months are grace, as a new
Master has had no Master games yet), the title lapses on the first day fewer than 5 games are
alive. A lapsed title stays lapsed; the player must become eligible and be awarded it again.
"""

from __future__ import annotations

import calendar
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

__all__ = [
    "MASTER_TITLE_PARAMS",
    "MasterTitleParams",
    "TitleEligibility",
    "TitleLapse",
    "add_months",
    "title_eligibility",
    "title_lapse",
]


@dataclass(frozen=True, slots=True)
class MasterTitleParams:
    """Constants of the Master title rules; the Django side takes them from the versioned
    parameter set in force, with the cap from the settings (``ratings/params.py``)."""

    min_lobby: float = 950.0
    min_elo_tournaments: int = 1
    cap: int = 120
    """Most Master titles held at once."""
    games_to_keep: int = 5
    window_months: int = 3

    def __post_init__(self) -> None:
        if self.cap < 0:
            raise ValueError("cap must not be negative")
        if self.games_to_keep < 0:
            raise ValueError("games_to_keep must not be negative")
        if self.window_months < 1:
            raise ValueError("window_months must be at least 1")


MASTER_TITLE_PARAMS = MasterTitleParams()

# Reasons a player is not eligible, stable codes for the Django side to translate.
BELOW_LOBBY = "lobby_below_minimum"
NO_ELO_TOURNAMENT = "no_elo_tournament"
CAP_REACHED = "cap_reached"


@dataclass(frozen=True, slots=True)
class TitleEligibility:
    eligible: bool
    reasons: tuple[str, ...]
    """Why not, as codes (empty when eligible): lobby_below_minimum, no_elo_tournament,
    cap_reached."""


def title_eligibility(
    *,
    lobby_rating: float,
    elo_tournaments: int,
    titles_held: int,
    params: MasterTitleParams = MASTER_TITLE_PARAMS,
) -> TitleEligibility:
    """Whether a player who does not hold the title may be awarded it now.

    ``titles_held`` is how many Master titles are currently held by others.
    """
    reasons: list[str] = []
    if lobby_rating < params.min_lobby:
        reasons.append(BELOW_LOBBY)
    if elo_tournaments < params.min_elo_tournaments:
        reasons.append(NO_ELO_TOURNAMENT)
    if titles_held >= params.cap:
        reasons.append(CAP_REACHED)
    return TitleEligibility(eligible=not reasons, reasons=tuple(reasons))


def add_months(day: date, months: int) -> date:
    """The same day ``months`` later, on the month's last day if it is shorter (31 Jan + 1
    month = 28 or 29 Feb), as people count "3 months"."""
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(day.day, last))


@dataclass(frozen=True, slots=True)
class TitleLapse:
    lapsed: bool
    lapsed_on: date | None
    """The first day the title no longer held; None while it holds."""


def title_lapse(
    *,
    awarded_on: date,
    master_game_dates: Iterable[date],
    today: date,
    params: MasterTitleParams = MASTER_TITLE_PARAMS,
) -> TitleLapse:
    """Whether a title awarded on ``awarded_on`` has lapsed by ``today``, and since when.

    ``master_game_dates`` are the days of the Master's Master games, in any order, one entry per
    game (games before the award may be included; they count while alive).
    """
    starts = sorted(d for d in master_game_dates if d <= today)
    ends = sorted(add_months(d, params.window_months) for d in starts)
    first_check = add_months(awarded_on, params.window_months)

    # The alive count only falls on a day some game expires, so only the first check day and
    # those days need looking at, in order.
    candidates = sorted({first_check, *(e for e in ends if e > first_check)})
    for day in candidates:
        if day > today:
            break
        alive = bisect_right(starts, day) - bisect_right(ends, day)
        if alive < params.games_to_keep:
            return TitleLapse(lapsed=True, lapsed_on=day)
    return TitleLapse(lapsed=False, lapsed_on=None)
