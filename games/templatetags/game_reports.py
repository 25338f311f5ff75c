from __future__ import annotations

from django import template

from games.reports.selectors import names_versus, reports_waiting_for, seat_names

register = template.Library()


@register.simple_tag(takes_context=True)
def reports_waiting_for_viewer(context, player) -> list | None:
    """The reports waiting for this player, when the viewer is that player; else None."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or player.user_id != user.pk:
        return None
    waiting = reports_waiting_for(user)
    for report in waiting:
        report.players = names_versus(seat_names(report.reported_game))
    return waiting
