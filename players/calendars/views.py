"""A player's calendar feed (read by calendar programs, with the token in the address as the
only key) and the profile's buttons that make a new address or turn it off."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players.calendars import services
from players.calendars.ical import calendar_text
from players.calendars.selectors import feed_player
from players.calendars.sources import player_events
from players.roles import player_of

CONTENT_TYPE = "text/calendar; charset=utf-8"


def calendar_response(text: str, *, filename: str) -> HttpResponse:
    """A feed as calendar programs want it. Never kept by a shared cache: a private feed must
    stop answering as soon as its address is replaced, and a public one changes with results."""
    response = HttpResponse(text.encode("utf-8"), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-cache, private"
    return response


@require_GET
def player_calendar_view(request, token: str):
    """The feed of the player whose address this is, in the language of their profile (a
    calendar program sends no cookie, and often no language)."""
    player = feed_player(token)
    if player is None:
        raise Http404(_("No such calendar."))
    with translation.override(player.language or settings.LANGUAGE_CODE):
        text = calendar_text(
            name=_("Tantrix: %(player)s") % {"player": player.display_name},
            events=player_events(player, request.build_absolute_uri),
            stamp=timezone.now(),
        )
    response = calendar_response(text, filename="tantrix.ics")
    response["X-Robots-Tag"] = "noindex"
    return response


def _back_to_profile(request):
    """The profile's calendar section (home for an account with no player)."""
    player = player_of(request.user)
    if player is None:
        return redirect("home")
    return redirect(reverse("player-detail", args=[player.pk]) + "#calendar")


@login_required
@require_POST
def calendar_renew_view(request):
    services.calendar_feed_renew(user=request.user)
    messages.success(
        request,
        _(
            "Your calendar has a new address: give it to your calendar program. The old "
            "address no longer works."
        ),
    )
    return _back_to_profile(request)


@login_required
@require_POST
def calendar_revoke_view(request):
    if services.calendar_feed_revoke(user=request.user):
        messages.success(request, _("Your calendar is turned off: its address no longer works."))
    return _back_to_profile(request)
