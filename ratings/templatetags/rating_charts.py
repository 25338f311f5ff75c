"""Charts of each table a player is rated in, for the player page (ratings/_player_ratings.html)."""

from __future__ import annotations

from django import template

from ratings import selectors
from ratings.history.charts import history_chart
from ratings.models import RatingSystem

register = template.Library()


@register.simple_tag
def player_rating_charts(player, ratings) -> list[dict]:
    """One chart per table in `ratings` (the player's Rating rows), in table order."""
    charts = []
    for rating in ratings:
        history = list(selectors.rating_history(player_id=player.pk, system=rating.system))
        chart = history_chart(history, height=200)
        if chart is not None:
            charts.append(
                {
                    "system": rating.system,
                    "label": RatingSystem(rating.system).label,
                    "chart": chart,
                }
            )
    return charts
