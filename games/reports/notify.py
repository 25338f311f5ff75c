"""Telling the people of a reported game: its other side, its sides, its rulers.

Each notice (and its email) is written in its reader's language, the one their profile chose
(English when it chose none): it is sent from whoever acted, in whatever language they read.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import (
    GameReport,
    ReportedGame,
)
from games.reports.access import (
    authority_of,
    other_sides,
)
from games.reports.selectors import names_versus
from players.models import Player
from players.notices.services import notice_send
from players.roles import player_of

# --- Telling people -------------------------------------------------------------------------

# What the notices are about: a reported game, by its id (its page is registered in
# games.apps, where the URL names live beside the views).
NOTICE_ABOUT = "reported_game"


def _names(reported: ReportedGame) -> str:
    names = dict(
        Player.objects.filter(pk__in=reported.seat_players).values_list("pk", "display_name")
    )
    return names_versus([names.get(pid, "?") for pid in reported.seat_players])


def _language_of(user) -> str:
    player = player_of(user)
    return (player.language if player is not None else "") or settings.LANGUAGE_CODE


def tell_opponents(report_id: int) -> None:
    version = GameReport.objects.select_related("reported_game", "side_player").get(pk=report_id)
    reported = version.reported_game
    for player in Player.objects.filter(
        pk__in=other_sides(reported, version.side_player_id), user__isnull=False
    ).select_related("user"):
        with translation.override(player.language or settings.LANGUAGE_CODE):
            text = _("%(who)s reported the game %(game)s. Please confirm or dispute it.") % {
                "who": version.side_player.display_name,
                "game": _names(reported),
            }
            notice_send(user=player.user, text=text, about=NOTICE_ABOUT, about_id=reported.pk)


def tell_sides_outcome(report_id: int) -> None:
    version = GameReport.objects.select_related("reported_game").get(pk=report_id)
    reported = version.reported_game
    for player in Player.objects.filter(
        pk__in=reported.seat_players, user__isnull=False
    ).select_related("user"):
        with translation.override(player.language or settings.LANGUAGE_CODE):
            text = _("The result of %(game)s: %(state)s (%(how)s).") % {
                "game": _names(reported),
                "state": reported.get_state_display(),
                "how": version.get_status_display(),
            }
            notice_send(user=player.user, text=text, about=NOTICE_ABOUT, about_id=reported.pk)


# What rulers are told, by cause; each is one whole sentence with the game's players in it.
RULER_TEXTS = {
    "disputed": gettext_lazy("A game result is disputed. %(game)s"),
    "reopened": gettext_lazy("A ruled game result was reopened. %(game)s"),
}


def tell_rulers(reported_game_id: int, cause: str) -> None:
    """Tell the game's rulers why it waits for them (`cause`: a key of RULER_TEXTS)."""
    reported = ReportedGame.objects.get(pk=reported_game_id)
    authority, value = authority_of(reported)
    if authority is not None:
        rulers = list(authority.rulers(value))
    else:
        rulers = list(get_user_model().objects.filter(is_staff=True, is_active=True))
    for user in rulers:
        with translation.override(_language_of(user)):
            text = str(RULER_TEXTS[cause]) % {"game": _names(reported)}
            notice_send(user=user, text=text, about=NOTICE_ABOUT, about_id=reported.pk)
