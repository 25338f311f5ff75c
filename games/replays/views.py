"""Web pages of games: the list of games played, and one game with its replay."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.links import match_link
from games.models import Game
from games.replays import selectors
from games.replays.drawing import board_svg
from games.replays.sides import game_sides
from games.replays.viewer import replay_context
from tantrix_site.http.permissions import has_permission


def game_list_view(request):
    player = request.GET.get("player")
    games = selectors.game_list(
        viewer=request.user,
        player_id=int(player) if player and player.isdigit() and len(player) < 19 else None,
    )
    page = Paginator(games, 50).get_page(request.GET.get("page"))
    return render(request, "games/game_list.html", {"page": page})


def game_detail_view(request, pk: int):
    try:
        game = selectors.game_detail(game_id=pk, viewer=request.user)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
    seats = list(game.seats.all())
    record = game.record
    context = {
        "game": game,
        "seats": seats,
        "sides": game_sides(is_pairs=game.is_pairs, winner_seat=game.winner_seat, seats=seats),
        "match": match_link(record.extensions.get("match")),
        "record_visible": has_permission(request.user, "see_record", record),
    }
    context.update(replay_context(record))
    if "replay" not in context:
        context["board"] = board_svg(game.placements)
    return render(request, "games/game_detail.html", context)
