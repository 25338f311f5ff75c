"""The player's home in the API: `/api/me/` and its parts (issue 28). Thin: the reads are
`tournaments.home.selectors`, the same the page shows.

Anonymous callers are refused as everywhere (401, or 403 where no scheme asks for
credentials). An account without a player gets empty lists (its waiting reports excepted:
organisers answer for players without an account)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import Player
from players.preferences.timezones import zone_for
from players.types import User
from tournaments.home import selectors
from tournaments.home.serializers import (
    HomeNextMatchSerializer,
    HomeOpenDisputeSerializer,
    HomeOpenEventSerializer,
    HomeRatingTrendSerializer,
    HomeRecentResultSerializer,
    HomeWaitingReportSerializer,
    MeSerializer,
)

# The parts of /api/me/, by URL name.
PARTS = {
    "matches": "api-me-matches",
    "reports_waiting": "api-me-reports-waiting",
    "disputes": "api-me-disputes",
    "results": "api-me-results",
    "ratings": "api-me-ratings",
    "events_open": "api-me-events-open",
}


def player_zone(player: Player | None):
    """The zone the player reads times in: their profile's, else the site's."""
    zone = zone_for(player.time_zone) if player is not None else None
    return zone or timezone.get_default_timezone()


@extend_schema(tags=["me"], responses=MeSerializer)
class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def get(self, request):
        """Who I am: my account, my player (empty for an account without one), the zone every
        time of /api/me/ is given in (my profile's, else the site's), and the addresses of my
        home's parts."""
        player = selectors.home_player(request.user)
        zone = player_zone(player)
        body = {
            "username": request.user.get_username(),
            "player": player,
            "time_zone": zone.key,
            "links": {part: reverse(name) for part, name in PARTS.items()},
        }
        return Response(MeSerializer(body).data)


class MePartView(generics.ListAPIView):
    """One part of the signed-in player's home, as a list (paginated where it can grow)."""

    permission_classes = [permissions.IsAuthenticated]
    # The rows are built lists in the home's own order, not querysets: the site's default
    # search and ordering filters would take ?ordering= to a list and answer 500.
    filter_backends: list = []

    def rows(self, user: User, player: Player) -> list:
        raise NotImplementedError

    def without_player(self, user: User) -> list:
        return []

    def get_queryset(self) -> list | QuerySet:
        if getattr(self, "swagger_fake_view", False):
            # The schema's generation asks the view for a model; the rows are not models, and
            # no parameter of these paths names one.
            return Player.objects.none()
        player = selectors.home_player(self.request.user)
        if player is None:
            return self.without_player(self.request.user)
        return self.rows(self.request.user, player)

    def get_serializer_context(self) -> dict:
        return {
            **super().get_serializer_context(),
            "zone": player_zone(selectors.home_player(self.request.user)),
        }


@extend_schema(tags=["me"])
class MeMatchesView(MePartView):
    """My next matches: opponent, round, event, deadline (in my zone), the match's page; the
    nearest deadline first."""

    serializer_class = HomeNextMatchSerializer

    def rows(self, user, player):
        return selectors.next_matches(player)


@extend_schema(tags=["me"])
class MeWaitingReportsView(MePartView):
    """Results waiting for my answer, oldest first: the other side's reports of my games, and,
    for organisers, those of players they answer for. `page` is where to confirm or dispute
    one, `confirm` and `dispute` the API's actions; unanswered by `answer_by`, it stands."""

    serializer_class = HomeWaitingReportSerializer

    def rows(self, user, player):
        return selectors.waiting_reports(user)

    def without_player(self, user):
        return selectors.waiting_reports(user)


@extend_schema(tags=["me"])
class MeDisputesView(MePartView):
    """My games whose result is disputed, waiting for a ruling."""

    serializer_class = HomeOpenDisputeSerializer

    def rows(self, user, player):
        return selectors.open_disputes(player)


@extend_schema(tags=["me"])
class MeResultsView(MePartView):
    """My settled matches, the latest first: `outcome` is won, lost, or none (void: nobody
    went on); TPs with one decimal place, mine first."""

    serializer_class = HomeRecentResultSerializer

    def rows(self, user, player):
        return selectors.recent_results(player)


@extend_schema(tags=["me"])
class MeRatingsView(MePartView):
    """My ranking (the 1000-point scale) and tournament Elo, each with its move over the last
    30 days (`change`, by the played dates of the changes; empty when it did not move) and its
    latest values, oldest first (`points`). Two rows at most: not paginated."""

    serializer_class = HomeRatingTrendSerializer
    pagination_class = None

    def rows(self, user, player):
        return selectors.rating_trends(player)


@extend_schema(tags=["me"])
class MeOpenEventsView(MePartView):
    """Events open for registration that I have not entered and may enter (the registration
    service's eligibility check)."""

    serializer_class = HomeOpenEventSerializer

    def rows(self, user, player):
        return selectors.open_events(user, player)
