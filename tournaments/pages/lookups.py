"""What an organiser page looks up by id, with the visibility rule every page shares: a 404 for
what the user may not see (an unpublished championship and everything in it, to anyone who is
not its staff). A view names one of these as the lookup of its permission's declaration
(`permission_required(..., lookup=event_or_404)`).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import SIDES, Championship, Entry, Event, Match, Round
from tournaments.permissions import can_see


def championship_or_404(request, pk: int) -> Championship:
    return get_object_or_404(selectors.championships_visible_to(request.user), pk=pk)


def event_or_404(request, pk: int) -> Event:
    return get_object_or_404(selectors.events_visible_to(request.user), pk=pk)


def match_or_404(request, pk: int) -> Match:
    match = selectors.match_visible_to(request.user, pk)
    if match is None:
        raise Http404(_("No such match."))
    return match


def round_or_404(request, pk: int) -> Round:
    round_ = get_object_or_404(Round.objects.select_related("event__championship"), pk=pk)
    if not can_see(request.user, round_.event.championship):
        raise Http404(_("No such round."))
    return round_


def entry_or_404(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related(*SIDES, "event__championship"), pk=pk)
    if not can_see(request.user, entry.event.championship):
        raise Http404(_("No such entry."))
    return entry
