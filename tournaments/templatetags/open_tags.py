"""The event page's standings, tie-breaks, table-open rounds and export links (one include).

A tag rather than more context in the event view, so this feature stays in its own files."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tantrix_site.http.permissions import permission_context
from tournaments.forecasts import pages as forecast_pages
from tournaments.models import EventFormat, EventStatus
from tournaments.standings import (
    criteria_labels,
    criteria_ranked_by,
    event_criteria,
    event_ranked,
    event_standings,
    event_started,
)

register = template.Library()


def tiebreak_sentence(phrases: list[str]) -> SafeString:
    """ "Standings are ranked <strong>by TP total</strong>, then <strong>by Buchholz</strong>,
    and finally by seed.": one sentence for the translator, each criterion in the words a
    sentence gives it ("by TP total", which a language declines: "по сумме TP"), joined with a
    translated separator."""
    separator = conditional_escape(
        pgettext("between tie-breaks: by TP total, then by Buchholz", ", then ")
    )
    criteria = separator.join(format_html("<strong>{}</strong>", phrase) for phrase in phrases)
    sentence = conditional_escape(_("Standings are ranked %(criteria)s, and finally by seed."))
    return mark_safe(sentence % {"criteria": criteria})  # noqa: S308 -- both parts escaped above


@register.inclusion_tag("tournaments/open_panel.html", takes_context=True)
def event_standings_panel(context: dict[str, Any], event) -> dict[str, Any]:
    user = context["request"].user
    started = event_started(event)
    ranked = event_ranked(event)
    criteria = event_criteria(event)
    labels = criteria_labels(criteria)
    return {
        "event": event,
        "ranked": ranked,
        "started": started,
        "criteria": labels,
        "tiebreak_sentence": tiebreak_sentence(criteria_ranked_by(criteria)),
        "criteria_keys": criteria,
        # A table open's standings are here, with its controller's actions; an online ranked
        # event's are in the live fragment (tournaments/pages/fragments.py), which follows
        # each result. A Swiss event's chances are columns of that one table.
        "lines": event_standings(event) if ranked and started and event.table_open else [],
        **(
            forecast_pages.event_context(event)
            if ranked and started and event.table_open and event.format == EventFormat.SWISS
            else {}
        ),
        "rounds": list(event.rounds.order_by("number")) if event.table_open and started else [],
        **permission_context(user, event, "manage", "rule"),
        "before_draw": event.status in (EventStatus.REGISTRATION, EventStatus.CLOSED),
        "late_entries": event.table_open
        and event.format == EventFormat.SWISS
        and event.status == EventStatus.DRAWN,
    }
