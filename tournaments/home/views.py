"""The home page: a signed-in player's own (what waits for them), else the visitor's."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import number_format

from tournaments.home.selectors import TREND_DAYS, home_for
from tournaments.home.sparkline import polyline_points


def signed(change: float | None) -> str:
    """A rating's move with its sign, one decimal place, in the reader's way of writing
    numbers ("+12.3", "−4.0"); "" when nothing moved (or it rounds to nothing)."""
    if change is None or round(change, 1) == 0:
        return ""
    sign = "+" if change > 0 else "\N{MINUS SIGN}"
    return sign + number_format(abs(change), 1)


def home(request: HttpRequest) -> HttpResponse:
    found = home_for(request.user)
    if found is None:
        # A visitor, or an account without a player: the site's front page.
        return render(request, "home.html")
    return render(
        request,
        "tournaments/home/player_home.html",
        {
            "home": found,
            "ratings": [
                (trend, polyline_points(trend.points), signed(trend.change))
                for trend in found.ratings
            ],
            "trend_days": TREND_DAYS,
        },
    )
