"""What the organiser pages share: binding a POST, running a form's service, the small action
page, going back to the event with a message, and the registration page of players and pairs
(the organiser views of the app and of its rooms: opens, sides, matches)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from players.roles import player_of
from tantrix_site.http.permissions import permission_context
from tournaments.models import EntryStatus, Event

T = TypeVar("T")


def posted(request) -> Any:
    """The form data of a POST (even an empty one, so button-only forms bind), else None."""
    return request.POST if request.method == "POST" else None


def applied(request, form, apply: Callable[[], T | None]) -> T | None:
    """What a valid POST of ``form`` did (``apply()``'s result), or None: not a POST, invalid
    input, or a refusal by the service (which the form then carries as its errors)."""
    if request.method == "POST" and form.is_valid():
        return apply()
    return None


def action_page(request, *, title: str, form, back_url: str, submit: str, **extra: Any):
    """The page behind a small organiser action: its form, with the errors on its fields."""
    context = {"title": title, "form": form, "back_url": back_url, "submit": submit, **extra}
    return render(request, "tournaments/action_form.html", context)


def back_to_event(request, event_id: int, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("event-page", pk=event_id)


def registration_page(request, event: Event, form_class: type, template: str) -> HttpResponse:
    """Registering for an event (a player, or a pair by naming a partner): organisers register
    anyone, a player themselves. A pair that waits for the partner says so."""
    can = permission_context(request.user, event, "manage")
    if not can["can_manage"] and player_of(request.user) is None:
        raise PermissionDenied(_("Only players and this championship's organisers may register."))
    form = form_class(posted(request), actor=request.user, event=event)
    entry = applied(request, form, form.apply)
    if entry is None:
        return render(request, template, {"event": event, "form": form, **can})
    if entry.status == EntryStatus.PENDING:
        done = _("%(pair)s: your partner is asked to confirm the pair.") % {"pair": entry.name}
    else:
        done = _("%(entry)s is entered in %(event)s.") % {"entry": entry.name, "event": event.name}
    return back_to_event(request, event.pk, done)
