"""The event page's standings, tie-breaks, table-open rounds and export links (one include).

A tag rather than more context in the event view, so this feature stays in its own files."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.models import EventFormat, EventStatus
from tournaments.permissions import can_manage, can_rule
from tournaments.standings import criteria_labels, event_criteria, event_standings, event_started

register = template.Library()

RANKED_FORMATS = (EventFormat.SWISS, EventFormat.ROUND_ROBIN)


def tiebreak_sentence(labels: list[str]) -> SafeString:
    """ "Standings rank on <strong>TPs</strong>, then <strong>Buchholz</strong>, and finally by
    seed.": one sentence for the translator, the criteria joined with a translated separator."""
    separator = conditional_escape(_(", then "))
    criteria = separator.join(format_html("<strong>{}</strong>", label) for label in labels)
    sentence = conditional_escape(_("Standings rank on %(criteria)s, and finally by seed."))
    return mark_safe(sentence % {"criteria": criteria})  # noqa: S308 -- both parts escaped above


@register.inclusion_tag("tournaments/open_panel.html", takes_context=True)
def event_standings_panel(context: dict[str, Any], event) -> dict[str, Any]:
    user = context["request"].user
    started = event_started(event)
    ranked = event.format in RANKED_FORMATS or event.table_open
    criteria = event_criteria(event)
    labels = criteria_labels(criteria)
    return {
        "event": event,
        "ranked": ranked,
        "started": started,
        "criteria": labels,
        "tiebreak_sentence": tiebreak_sentence(labels),
        "criteria_keys": criteria,
        "lines": event_standings(event) if ranked and started else [],
        "rounds": list(event.rounds.order_by("number")) if event.table_open and started else [],
        "can_manage": can_manage(user, event.championship),
        "can_rule": can_rule(user, event.championship),
        "before_draw": event.status in (EventStatus.REGISTRATION, EventStatus.CLOSED),
        "late_entries": event.table_open
        and event.format == EventFormat.SWISS
        and event.status == EventStatus.DRAWN,
    }
