"""Show every time in the reader's own time zone (their profile setting), else the site's."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from players.preferences.timezones import zone_for
from players.roles import player_of


class TimezoneMiddleware:
    """Activates the signed-in player's time zone for the request (after authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The reverse one-to-one is cached on the user, so the header's current player reuses
        # this query.
        player = player_of(getattr(request, "user", None))
        zone = zone_for(player.time_zone) if player is not None else None
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class LanguageMiddleware:
    """The signed-in player's chosen language (their profile) over the cookie and the
    browser's Accept-Language, which LocaleMiddleware has already applied. The switcher in the
    header saves the choice in the profile as well (`views.language_set_view`), so the two
    never disagree for a signed-in reader."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        player = player_of(getattr(request, "user", None))
        if player is not None and player.language:
            translation.activate(player.language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
