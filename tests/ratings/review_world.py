"""A review queue with items of several kinds, made through the rating services, with every game
played weeks ago (so a date shown as the day the ratings computed it is told apart):

- Ingrid, Tomas and Noah bring established Elo ratings to "Review Cup 2026 · Singles"; Ingrid
  beats Tomas 19.4–0.6 TPs and then Noah, and her tournament Elo swing is flagged, as are the
  swings of Tomas and Noah;
- a lobby game (Ingrid against Aroha) whose large lobby swings are flagged.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from games.models import Game
from players.models import Player
from players.roles import ORGANISERS_GROUP
from ratings import services
from ratings.models import Rating, Review
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game

# Late in the UTC evening: in Auckland (UTC+13 in summer) it is already the next day.
PLAYED = (timezone.now() - dt.timedelta(days=26)).replace(
    hour=23, minute=30, second=0, microsecond=0
)


@dataclass
class ReviewWorld:
    ingrid: Player
    tomas: Player
    noah: Player
    aroha: Player
    event_id: int
    elo_games: list[Game]
    lobby_game: Game

    def elo_swing(self, player: Player) -> Review:
        return Review.objects.get(
            kind="large_swing", player=player, change__system="elo", status="open"
        )

    def lobby_swing(self, player: Player) -> Review:
        """The player's lobby swing in the lobby game."""
        return Review.objects.get(
            kind="large_swing", player=player, change__system="lobby", game=self.lobby_game
        )


def review_world(settings) -> ReviewWorld:
    settings.RATINGS_REVIEW_SWING_ELO = 5.0
    settings.RATINGS_REVIEW_SWING_POINTS = 3.0
    from tournaments import services as tournament_services

    organiser = get_user_model().objects.create_user("review-organiser", password="x" * 12)
    organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    cup = tournament_services.championship_create(
        actor=organiser, name="Review Cup", year=2026, published=True
    )
    event = tournament_services.event_create(
        actor=organiser, championship=cup, name="Singles", format="swiss", swiss_rounds=3
    )
    ingrid = PlayerFactory(display_name="Ingrid", country="NO")
    tomas = PlayerFactory(display_name="Tomas", country="CZ")
    noah = PlayerFactory(display_name="Noah", country="NZ")
    aroha = PlayerFactory(display_name="Aroha", country="NZ")
    for player in (ingrid, tomas, noah):
        Rating.objects.create(player=player, system="elo", value=1850.0, games=40)
    elo_games = [
        make_game(
            [ingrid, tomas],
            [25, 5],
            event_id=event.pk,
            tps=[19.4, 0.6],
            context="tournament",
            played_at=PLAYED - dt.timedelta(hours=2),
        ),
        make_game(
            [noah, ingrid],
            [12, 20],
            event_id=event.pk,
            tps=[6.0, 14.0],
            context="tournament",
            played_at=PLAYED,
        ),
    ]
    lobby_game = make_game([ingrid, aroha], [30, 4], played_at=PLAYED - dt.timedelta(days=1))
    for game in (lobby_game, *elo_games):
        services.game_ratings_apply(game_id=game.pk)
    services.elo_event_recalculate(event_id=event.pk, anchor=False)
    return ReviewWorld(ingrid, tomas, noah, aroha, event.pk, elo_games, lobby_game)
