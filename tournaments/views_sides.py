"""Web pages for doubles and team championships: registering pairs and answering requests,
teams and their rosters, team matches. Thin: a form or a service each."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from players.roles import player_of
from tournaments import selectors, services
from tournaments.forms_sides import PairRegisterForm
from tournaments.models import SIDES, Entry, EntryKind, Event
from tournaments.permissions import can_manage, can_see


def _event(request, pk: int) -> Event:
    return get_object_or_404(selectors.events_visible_to(request.user), pk=pk)


def _entry(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related(*SIDES, "event__championship"), pk=pk)
    if not can_see(request.user, entry.event.championship):
        raise PermissionDenied("No such entry.")
    return entry


def _posted(request):
    return request.POST if request.method == "POST" else None


@login_required
def pair_register_view(request, pk: int):
    """A player registers a pair by naming a partner; organisers enter any two players."""
    event = _event(request, pk)
    if event.entry_kind != EntryKind.PAIR:
        raise PermissionDenied("This event is not a doubles event.")
    manager = can_manage(request.user, event.championship)
    if not manager and player_of(request.user) is None:
        raise PermissionDenied("Only players and this championship's organisers may register.")
    form = PairRegisterForm(_posted(request), actor=request.user, event=event)
    if request.method == "POST" and form.is_valid():
        entry = form.apply()
        if entry is not None:
            if entry.status == "pending":
                messages.success(
                    request, f"{entry.name}: your partner is asked to confirm the pair."
                )
            else:
                messages.success(request, f"{entry.name} is entered in {event.name}.")
            return redirect("event-page", pk=event.pk)
    return render(
        request,
        "tournaments/pair_register.html",
        {"event": event, "form": form, "can_manage": manager},
    )


@login_required
@require_POST
def pair_answer_view(request, pk: int, answer: str):
    """The partner confirms a pair (or either player calls it off)."""
    if answer not in ("confirm", "decline"):
        raise Http404("No such answer.")
    entry = _entry(request, pk)
    try:
        if answer == "confirm":
            services.pair_confirm(actor=request.user, entry=entry)
            messages.success(request, f"{entry.name} is entered in {entry.event.name}.")
        else:
            services.pair_decline(
                actor=request.user, entry=entry, reason=request.POST.get("reason", "")[:2000]
            )
            messages.success(request, f"The pair {entry.name} is called off.")
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return redirect("event-page", pk=entry.event_id)
