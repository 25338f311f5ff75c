"""The header's language switcher."""

from __future__ import annotations

from django.conf import settings
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from players import services
from players.roles import player_of


@require_POST
def language_set_view(request):
    """The header's language switcher: Django's ``set_language`` (the language cookie, then back
    to the page), and for a signed-in player their profile's language as well, so the choice
    follows them to other browsers."""
    response = set_language(request)
    language = request.POST.get("language", "")
    player = player_of(request.user)
    if player is not None and language in dict(settings.LANGUAGES):
        services.player_language_set(player=player, language=language)
    return response
