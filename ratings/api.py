"""The ratings API: public rankings, histories and titles (admins award and withdraw them);
the staff's review desk is ``ratings.staff.api``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import Player
from ratings import selectors, services
from ratings.models import Rating, RatingChange, RatingSystem, Title
from ratings.serializers import (
    HistoryQuerySerializer,
    PlayerRatingsSerializer,
    RankingQuerySerializer,
    RankingRowSerializer,
    RatingChangeSerializer,
    StaffTitleSerializer,
    TitleAwardSerializer,
    TitleSerializer,
    TitleWithdrawSerializer,
)
from tantrix_site.http.permissions import has_permission as rule_allows

TAGS = ["ratings"]
SYSTEM_PARAMETER = OpenApiParameter(
    "system", str, enum=RatingSystem.values, description="The table (default lobby)."
)


def is_ratings_admin(user) -> bool:
    """The declared rule `review_ratings` (ratings/staff/access.py)."""
    return rule_allows(user, "review_ratings")


class IsRatingsAdmin(permissions.BasePermission):
    """Admins (staff) review ratings; organisers and players do not (the rule
    `review_ratings`, in the API's words)."""

    message = gettext_lazy("Only admins may review ratings.")

    def has_permission(self, request, view) -> bool:
        return is_ratings_admin(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return is_ratings_admin(request.user)


class ReadOrRatingsAdmin(IsRatingsAdmin):
    """Anyone reads; only admins write."""

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or is_ratings_admin(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or is_ratings_admin(request.user)


class HistoryPagination(PageNumberPagination):
    """Chart data: long pages, the client may ask for up to 1000 points at once."""

    page_size = 200
    page_size_query_param = "page_size"
    max_page_size = 1000


def validated_query(serializer_class, request) -> dict:
    """The request's query parameters, validated by ``serializer_class`` (400 otherwise)."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class RankingListView(generics.ListAPIView):
    """A ranking table's top 100 (the `RATINGS_RANKING_SIZE` setting), best first.

    `rank` is the place in the whole table, also when filtered by `country` or `search`.
    Robots and players without games in the table are not listed; the monthly table lists this
    month only; the Elo marks provisional ratings (fewer than 36 games)."""

    serializer_class = RankingRowSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends: list = []
    queryset = Rating.objects.none()

    @extend_schema(
        tags=TAGS,
        parameters=[
            SYSTEM_PARAMETER,
            OpenApiParameter("country", str, description="Two-letter country code."),
            OpenApiParameter("search", str, description="Part of a player's name."),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        query = validated_query(RankingQuerySerializer, self.request)
        return selectors.ranking_table(
            system=query["system"],
            country=query.get("country", ""),
            search=query.get("search", ""),
        )


class PlayerRatingsView(APIView):
    """A player's ratings in every table they played in, their titles and Elo tournaments."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=TAGS, responses=PlayerRatingsSerializer)
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        data = {
            "player": player.pk,
            "display_name": player.display_name,
            "ratings": selectors.player_ratings(player_id=player.pk),
            "titles": list(selectors.player_titles(player_id=player.pk).select_related("player")),
            "elo_tournaments": selectors.elo_tournaments(player_id=player.pk).count(),
            "elo_results": selectors.with_event_names(
                list(selectors.elo_tournaments(player_id=player.pk)[:50])
            ),
        }
        return Response(PlayerRatingsSerializer(data).data)


class PlayerHistoryView(generics.ListAPIView):
    """A player's rating history in one table, oldest first: the points of a chart.

    Each change has the rating `before` and `after` it, its `reason` (game, revert, adjustment,
    tournament, anchor, recompute) and the game or tournament event that caused it."""

    serializer_class = RatingChangeSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = HistoryPagination
    filter_backends: list = []
    queryset = RatingChange.objects.none()

    @extend_schema(
        tags=TAGS,
        parameters=[
            SYSTEM_PARAMETER,
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        player = get_object_or_404(Player, pk=self.kwargs["pk"])
        query = validated_query(HistoryQuerySerializer, self.request)
        return selectors.rating_history(player_id=player.pk, system=query["system"])

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        return None if page is None else selectors.with_event_names(page)


class TitleListCreateView(generics.ListCreateAPIView):
    """Master titles held (`status=all` for every title ever awarded); admins award them.

    Awarding needs a lobby ranking of at least 950 and one Elo-rated tournament, within the cap
    (`RATINGS_MASTER_CAP`, default 120); a refusal answers 400 naming every reason."""

    permission_classes = [ReadOrRatingsAdmin]
    filter_backends: list = []
    queryset = Title.objects.none()

    def get_serializer_class(self):
        if self.request.method == "POST":
            return TitleAwardSerializer
        return StaffTitleSerializer if is_ratings_admin(self.request.user) else TitleSerializer

    @extend_schema(
        tags=TAGS,
        responses=TitleSerializer(many=True),
        parameters=[
            OpenApiParameter("status", str, enum=["active", "withdrawn", "lapsed", "all"]),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(tags=TAGS, request=TitleAwardSerializer, responses={201: StaffTitleSerializer})
    def post(self, request, *args, **kwargs):
        serializer = TitleAwardSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        title = services.title_award(
            actor=request.user,
            player_id=serializer.validated_data["player"],
            note=serializer.validated_data["note"],
        )
        return Response(StaffTitleSerializer(title).data, status=status.HTTP_201_CREATED)

    def get_queryset(self):
        wanted = self.request.query_params.get("status", Title.Status.ACTIVE)
        return selectors.title_list(status="" if wanted == "all" else wanted)


class TitleWithdrawView(generics.GenericAPIView):
    """Withdraw a held title (or end it as lapsed), with a note; closes its lapse reviews."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = TitleWithdrawSerializer
    queryset = Title.objects.all()

    @extend_schema(tags=TAGS, request=TitleWithdrawSerializer, responses=StaffTitleSerializer)
    def post(self, request, pk: int):
        title = self.get_object()
        serializer = TitleWithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        title = services.title_withdraw(actor=request.user, title_id=title.pk, **serializer.data)
        return Response(StaffTitleSerializer(title).data)
