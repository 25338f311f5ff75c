"""Reads of games as people see them: the list, one game, what a viewer may see."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch, QuerySet

from games.hooks import game_visibility_filters
from games.models import Game, GameSeat
from players.types import User


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat"))


def games_visible_to(viewer: User, games: QuerySet[Game]) -> QuerySet[Game]:
    """Only the games this viewer may see (higher apps register what to hide)."""
    for visible in game_visibility_filters():
        games = visible(viewer, games)
    return games


def game_list(
    *,
    viewer: User,
    player_id: int | None = None,
    context: str = "",
    event_id: int | None = None,
    played_from: dt.date | None = None,
    played_to: dt.date | None = None,
) -> QuerySet[Game]:
    games = games_visible_to(viewer, Game.objects.defer("placements"))
    games = games.prefetch_related(_seats_prefetch())
    if player_id is not None:
        games = games.filter(seats__player_id=player_id)
    if context:
        games = games.filter(context=context)
    if event_id is not None:
        games = games.filter(event_id=event_id)
    if played_from is not None:
        games = games.filter(played_at__date__gte=played_from)
    if played_to is not None:
        games = games.filter(played_at__date__lte=played_to)
    return games.order_by("-played_at", "-id")


def game_detail(*, game_id: int, viewer: User) -> Game:
    """One game with its seats; Game.DoesNotExist also when the viewer may not see it."""
    games = games_visible_to(viewer, Game.objects.all())
    return games.prefetch_related(_seats_prefetch()).select_related("record").get(pk=game_id)
