"""Telling the people of a reported game: its other side, its sides, its rulers."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import (
    GameReport,
    ReportedGame,
)
from games.reports.access import (
    authority_of,
    other_sides,
)
from players.models import Player
from players.services.notices import notice_send

# --- Telling people -------------------------------------------------------------------------


def reported_game_url(reported_game_id: int) -> str:
    return reverse("reported-game-detail", args=[reported_game_id])


def _names(reported: ReportedGame) -> str:
    names = dict(
        Player.objects.filter(pk__in=reported.seat_players).values_list("pk", "display_name")
    )
    return " v ".join(names.get(pid, "?") for pid in reported.seat_players)


def tell_opponents(report_id: int) -> None:
    version = GameReport.objects.select_related("reported_game", "side_player").get(pk=report_id)
    reported = version.reported_game
    text = _("%(who)s reported the game %(game)s. Please confirm or dispute it.") % {
        "who": version.side_player.display_name,
        "game": _names(reported),
    }
    for player in Player.objects.filter(
        pk__in=other_sides(reported, version.side_player_id), user__isnull=False
    ).select_related("user"):
        notice_send(user=player.user, text=text, url=reported_game_url(reported.pk))


def tell_sides_outcome(report_id: int) -> None:
    version = GameReport.objects.select_related("reported_game").get(pk=report_id)
    reported = version.reported_game
    text = _("The result of %(game)s: %(state)s (%(how)s).") % {
        "game": _names(reported),
        "state": reported.get_state_display(),
        "how": version.get_status_display(),
    }
    for player in Player.objects.filter(
        pk__in=reported.seat_players, user__isnull=False
    ).select_related("user"):
        notice_send(user=player.user, text=text, url=reported_game_url(reported.pk))


def tell_rulers(reported_game_id: int, text: str) -> None:
    from django.contrib.auth import get_user_model

    reported = ReportedGame.objects.get(pk=reported_game_id)
    authority, value = authority_of(reported)
    if authority is not None:
        rulers = list(authority.rulers(value))
    else:
        rulers = list(get_user_model().objects.filter(is_staff=True, is_active=True))
    full = f"{text} {_names(reported)}"
    for user in rulers:
        notice_send(user=user, text=full, url=reported_game_url(reported.pk))
