"""The staff's ratings API: the review queue and its actions, reverting a change, manual
adjustments, the audit trail, recompute as a task with progress, an event's Elo now, reverting
a repeated-results series. Admins only (anonymous 401, others 403)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from players.models import AuditEntry
from ratings import selectors, services
from ratings.api import TAGS, IsRatingsAdmin, validated_query
from ratings.models import RatingChange, RecomputeRun, Review
from ratings.queue import selectors as queue_selectors
from ratings.serializers import RatingChangeSerializer
from ratings.staff.review_serializers import OptionalNoteSerializer
from ratings.staff.serializers import (
    AdjustmentOutSerializer,
    AdjustmentSerializer,
    EloRecalculationSerializer,
    NoteSerializer,
    RatingAuditEntrySerializer,
    RecomputeRequestSerializer,
    RecomputeRunSerializer,
    ReviewQuerySerializer,
    ReviewSerializer,
)


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
        query = validated_query(ReviewQuerySerializer, self.request)
        return queue_selectors.review_queue(
            status=query["status"], kind=query.get("kind", ""), table=query.get("table", "")
        )

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        return None if page is None else queue_selectors.describe_reviews(page)


class ReviewDetailView(generics.RetrieveAPIView):
    """A review item: what it is about (its table, event, the games behind it, the size of the
    change with its played date) and the `actions` that work for it."""

    serializer_class = ReviewSerializer
    permission_classes = [IsRatingsAdmin]
    queryset = Review.objects.none()

    def get_queryset(self):
        return queue_selectors.review_queue(status="")

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
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        review = self.action_service(
            actor=request.user, review_id=review.pk, note=serializer.validated_data["note"]
        )
        return Response(ReviewSerializer(queue_selectors.review_item(review.pk)).data)


class ReviewApproveView(ReviewActionView):
    """Acknowledge a review: close it leaving the ratings as they are (the note is optional).
    The first name of `acknowledge/`, still answered."""

    serializer_class = OptionalNoteSerializer
    action_service = staticmethod(services.review_approve)

    @extend_schema(tags=TAGS, request=OptionalNoteSerializer, responses=ReviewSerializer)
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


class RecomputeListCreateView(generics.ListCreateAPIView):
    """Recomputes from the history (admins): `POST` queues one for the worker (all tables, or
    `systems`) and answers 202 with where to read its progress; `GET` lists recent ones."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = RecomputeRunSerializer
    filter_backends: list = []
    queryset = RecomputeRun.objects.select_related("requested_by")

    @extend_schema(tags=TAGS)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS, request=RecomputeRequestSerializer, responses={202: RecomputeRunSerializer}
    )
    def post(self, request, *args, **kwargs):
        serializer = RecomputeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        run = services.recompute_request(
            actor=request.user, systems=serializer.validated_data.get("systems") or None
        )
        body = RecomputeRunSerializer(run, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


class RecomputeDetailView(generics.RetrieveAPIView):
    """A recompute's status: queued, running (with the events replayed so far per table),
    done (with its summary) or failed (with the error)."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = RecomputeRunSerializer
    queryset = RecomputeRun.objects.select_related("requested_by")

    @extend_schema(tags=TAGS)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class EventEloView(generics.GenericAPIView):
    """Recalculate a tournament event's Elo now (admins), instead of after the few seconds'
    gathering delay or the hourly beat; 400 when the event has no Elo-rated games."""

    permission_classes = [IsRatingsAdmin]
    serializer_class = EloRecalculationSerializer
    queryset = Review.objects.none()

    @extend_schema(tags=TAGS, request=None, responses=EloRecalculationSerializer)
    def post(self, request, event_id: int):
        result = services.event_elo_recalculate_now(actor=request.user, event_id=event_id)
        return Response(EloRecalculationSerializer(result).data)


class ReviewSeriesRevertView(ReviewActionView):
    """Revert every game of a repeated-results flag's series at once (with a note); the flag and
    the other open flags of those games close. The series is listed in the review (`series`)."""

    action_service = staticmethod(services.review_revert_series)

    @extend_schema(tags=TAGS, request=NoteSerializer, responses=ReviewSerializer)
    def post(self, request, pk: int):
        return super().post(request, pk)
