"""The staff's rating tools in the API: recompute as a task with progress, an event's Elo now,
reverting a repeated-results series. Admins only (anonymous 401, others 403)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response

from ratings import services
from ratings.api import TAGS, IsRatingsAdmin, ReviewActionView
from ratings.models import RecomputeRun, Review
from ratings.serializers import (
    EloRecalculationSerializer,
    NoteSerializer,
    RecomputeRequestSerializer,
    RecomputeRunSerializer,
    ReviewSerializer,
)


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
