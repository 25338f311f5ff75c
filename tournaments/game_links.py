"""Names the matches that game records were submitted for (registered in games.links).

A match is named the way players speak of it, by its two sides and its round, with the event:
"Ana v Bela (Round 2, World Open)". One query for any number of matches.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.translation import gettext as _

from games.links import MatchLink
from tournaments.models import Match, sides_of


def _side(entry) -> str:
    return entry.name if entry is not None else _("a player to come")


def match_links(match_ids: Iterable[int]) -> dict[int, MatchLink]:
    matches = Match.objects.filter(pk__in=list(match_ids)).select_related(
        "round", "event", *sides_of("entry_a"), *sides_of("entry_b")
    )
    links = {}
    for match in matches:
        if match.is_bye:
            sides = _("%(player)s (bye)") % {"player": _side(match.entry_a or match.entry_b)}
        else:
            sides = _("%(a)s v %(b)s") % {"a": _side(match.entry_a), "b": _side(match.entry_b)}
        label = _("%(sides)s (%(round)s, %(event)s)") % {
            "sides": sides,
            "round": match.round,
            "event": match.event.name,
        }
        links[match.pk] = MatchLink(label=label, url=reverse("match-page", args=[match.pk]))
    return links
