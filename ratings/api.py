"""The ratings API: public rankings, histories and titles; staff review, adjustments, titles."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from players.models import AuditEntry, Player
from players.roles import is_admin
from ratings import selectors, services
from ratings.models import Rating, RatingChange, RatingSystem, Review, Title
from ratings.serializers import (
    AdjustmentOutSerializer,
    AdjustmentSerializer,
    HistoryQuerySerializer,
    NoteSerializer,
    PlayerRatingsSerializer,
    RankingQuerySerializer,
    RankingRowSerializer,
    RatingAuditEntrySerializer,
    RatingChangeSerializer,
    ReviewQuerySerializer,
    ReviewSerializer,
    StaffTitleSerializer,
    TitleAwardSerializer,
    TitleSerializer,
    TitleWithdrawSerializer,
)

TAGS = ["ratings"]
SYSTEM_PARAMETER = OpenApiParameter(
    "system", str, enum=RatingSystem.values, description="The table (default lobby)."
)


class IsRatingsAdmin(permissions.BasePermission):
    """Admins (staff) review ratings; organisers and players do not."""

    message = gettext_lazy("Only admins may review ratings.")

    def has_permission(self, request, view) -> bool:
        return is_admin(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return is_admin(request.user)


class ReadOrRatingsAdmin(IsRatingsAdmin):
    """Anyone reads; only admins write."""

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or is_admin(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or is_admin(request.user)


class HistoryPagination(PageNumberPagination):
    """Chart data: long pages, the client may ask for up to 1000 points at once."""

    page_size = 200
    page_size_query_param = "page_size"
    max_page_size = 1000


def _query(serializer_class, request) -> dict:
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
        query = _query(RankingQuerySerializer, self.request)
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
        query = _query(HistoryQuerySerializer, self.request)
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
        return StaffTitleSerializer if is_admin(self.request.user) else TitleSerializer

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


class ReviewListView(generics.ListAPIView):
    """The review queue (admins): open flags oldest first; `status` and `kind` filter it."""

    serializer_class = ReviewSerializer
    permission_classes = [IsRatingsAdmin]
    filter_backends: list = []
    queryset = Review.objects.none()

    @extend_schema(tags=TAGS, parameters=[ReviewQuerySerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        query = _query(ReviewQuerySerializer, self.request)
        return selectors.review_queue(status=query["status"], kind=query.get("kind", ""))


class ReviewDetailView(generics.RetrieveAPIView):
    serializer_class = ReviewSerializer
    permission_classes = [IsRatingsAdmin]
    queryset = Review.objects.select_related("change", "player")

    @extend_schema(tags=TAGS)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ReviewActionView(generics.GenericAPIView):
    """A review closed by ``action_service`` with the admin's note; subclasses name the service."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = NoteSerializer
    queryset = Review.objects.all()
    action_service = staticmethod(services.review_approve)

    def post(self, request, pk: int):
        review = self.get_object()
        serializer = NoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        review = self.action_service(
            actor=request.user, review_id=review.pk, note=serializer.validated_data["note"]
        )
        return Response(ReviewSerializer(review).data)


class ReviewApproveView(ReviewActionView):
    """Close a review leaving the ratings as they are (with a note)."""

    action_service = staticmethod(services.review_approve)

    @extend_schema(tags=TAGS, request=NoteSerializer, responses=ReviewSerializer)
    def post(self, request, pk: int):
        return super().post(request, pk)


class ReviewRevertView(ReviewActionView):
    """Close a review by reverting what it flags (the game in every table, or the change)."""

    action_service = staticmethod(services.review_revert)

    @extend_schema(tags=TAGS, request=NoteSerializer, responses=ReviewSerializer)
    def post(self, request, pk: int):
        return super().post(request, pk)


class ChangeRevertView(generics.GenericAPIView):
    """Revert one change with compensating changes (a game's change reverts the whole game)."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = NoteSerializer
    queryset = RatingChange.objects.all()
    filter_backends: list = []
    pagination_class = None

    @extend_schema(tags=TAGS, request=NoteSerializer, responses=RatingChangeSerializer(many=True))
    def post(self, request, pk: int):
        change = self.get_object()
        serializer = NoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = services.change_revert(
            actor=request.user, change_id=change.pk, note=serializer.validated_data["note"]
        )
        return Response(RatingChangeSerializer(made, many=True).data)


class AdjustmentListCreateView(generics.ListCreateAPIView):
    """Manual adjustments (admins): by a `delta` or to a `value`, always with a `reason`."""

    permission_classes = [IsRatingsAdmin]
    filter_backends: list = []
    queryset = RatingChange.objects.none()

    def get_serializer_class(self):
        return AdjustmentSerializer if self.request.method == "POST" else AdjustmentOutSerializer

    @extend_schema(
        tags=TAGS,
        responses=AdjustmentOutSerializer(many=True),
        parameters=[OpenApiParameter("player", int, description="Player id")],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS, request=AdjustmentSerializer, responses={201: AdjustmentOutSerializer}
    )
    def post(self, request, *args, **kwargs):
        serializer = AdjustmentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        change = services.rating_adjust(
            actor=request.user,
            player_id=data["player"],
            system=data["system"],
            reason=data["reason"],
            delta=data.get("delta"),
            value=data.get("value"),
        )
        return Response(AdjustmentOutSerializer(change).data, status=status.HTTP_201_CREATED)

    def get_queryset(self):
        player = self.request.query_params.get("player", "")
        if player and not (player.isdigit() and len(player) <= 18):
            raise ValidationError({"player": [_("Give a player id (a whole number).")]})
        return selectors.adjustment_list(player_id=int(player) if player else None)


class AuditListView(generics.ListAPIView):
    """The ratings audit trail (admins): every admin action and recalculation, newest first."""

    serializer_class = RatingAuditEntrySerializer
    permission_classes = [IsRatingsAdmin]
    filter_backends: list = []
    queryset = AuditEntry.objects.none()

    @extend_schema(
        tags=TAGS, parameters=[OpenApiParameter("action", OpenApiTypes.STR, required=False)]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.audit_list(action=self.request.query_params.get("action", ""))
