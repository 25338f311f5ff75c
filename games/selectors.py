from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch, QuerySet

from games.hooks import game_visibility_filters
from games.models import Game, GameRecord, GameSeat
from players.roles import is_admin, player_of
from players.types import User


def record_visible_to(user: User, record: GameRecord) -> bool:
    """The submitter, the players seated in it, and staff may see a record."""
    if not (user and user.is_authenticated):
        return False
    if is_admin(user) or record.submitter_id == user.pk:
        return True
    own = player_of(user)
    return own is not None and own.pk in (record.seat_players or [])


def records_for(user: User) -> QuerySet[GameRecord]:
    records = GameRecord.objects.select_related("submitter").defer("body")
    if is_admin(user):
        return records
    return records.filter(submitter=user)


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
