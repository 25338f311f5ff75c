from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from games import envelope, http, selectors, services
from games.models import Game, GameContext, GameRecord, RecordSource
from games.serializers import (
    GameDetailSerializer,
    GameSerializer,
    RecordListSerializer,
    RecordSerializer,
    RecordSubmitResponseSerializer,
)
from tantrix_site.http.filters import BoundedFilterSet, id_filter
from tantrix_site.http.middleware import declared_body_size

SUBMIT_DESCRIPTION = """Submit a `tantrix-game/1` record for adjudication.

Send the record as the JSON request body, or upload it as the `record` file of a multipart form.
Optional `match` (query parameter or form field) submits it for a tournament match.
Optional `Idempotency-Key` header: a repeat with the same key returns the first response.
Answers 202 with where to poll; refusals (not JSON, too large, unknown player, not a participant)
answer 400/403/413 with field-level messages, and the body is stored all the same."""


def read_submission(request) -> tuple[envelope.ReceivedBody, dict]:
    """The record (bounded: see `envelope.body_receive`) and extension fields of a submission.

    A body over REQUEST_MAX_BYTES is not parsed at all: a JSON body's first bytes are kept, a
    multipart upload's none, and the record says how large it was.
    """
    declared = declared_body_size(request._request)
    content_type = request.content_type or ""
    extras: dict = {}
    if declared > settings.REQUEST_MAX_BYTES:
        if content_type.startswith("multipart/form-data"):
            received = envelope.ReceivedBody(head=b"", size=declared, sha256="")
        else:
            received = envelope.body_receive(request._request, declared_size=declared)
    elif content_type.startswith("multipart/form-data"):
        upload = request.FILES.get("record") or request.FILES.get("file")
        if upload is not None:
            received = envelope.body_receive(upload, declared_size=upload.size)
        else:
            received = envelope.ReceivedBody.of((request.POST.get("record") or "").encode())
        extras = {k: v for k, v in request.POST.items() if k not in ("record", "file")}
    else:
        received = envelope.body_receive(request._request, declared_size=declared)
    for name, value in request.query_params.items():
        extras.setdefault(name, value)
    return received, extras


class RecordListCreateView(generics.ListAPIView):
    # Reads its own body within bounds, so an oversized submission is still stored (in part).
    oversized_body_allowed = True
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser]
    serializer_class = RecordListSerializer
    filter_backends: list = []
    queryset = GameRecord.objects.none()

    @extend_schema(
        description=SUBMIT_DESCRIPTION,
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": inline_serializer(
                "RecordUpload",
                {
                    "record": serializers.FileField(),
                    "match": serializers.IntegerField(required=False),
                },
            ),
        },
        parameters=[
            OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
            OpenApiParameter("match", int, OpenApiParameter.QUERY, required=False),
        ],
        responses={
            202: RecordSubmitResponseSerializer,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            413: OpenApiTypes.OBJECT,
        },
        tags=["games"],
    )
    def post(self, request):
        try:
            received, extras = read_submission(request)
        except RequestDataTooBig:
            # The form fields beside an upload went over DATA_UPLOAD_MAX_MEMORY_SIZE.
            return Response(
                {"record": [_("The form fields beside the record are too large.")]},
                status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            )
        submission = services.record_submit(
            actor=request.user,
            body=received,
            source=RecordSource.API,
            idempotency_key=request.headers.get("Idempotency-Key", ""),
            extensions=extras,
        )
        return http.submission_response(submission)

    @extend_schema(
        description="Your own submitted records (staff: everyone's), newest first.",
        tags=["games"],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.records_for(self.request.user)


class RecordDetailView(generics.RetrieveAPIView):
    """A record's status and verdict: for its submitter, the players in it and staff."""

    serializer_class = RecordSerializer
    permission_classes = [permissions.IsAuthenticated]
    queryset = GameRecord.objects.all()

    @extend_schema(tags=["games"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_object(self) -> GameRecord:
        record = get_object_or_404(
            GameRecord.objects.select_related("submitter", "game"), pk=self.kwargs["pk"]
        )
        if not selectors.record_visible_to(self.request.user, record):
            raise PermissionDenied(
                _("Only the submitter, the players in this game and staff may see this record.")
            )
        return record


class GameFilter(BoundedFilterSet):
    player = id_filter(help_text=gettext_lazy("Player id"))
    context = filters.ChoiceFilter(choices=GameContext.choices)
    event = id_filter(help_text=gettext_lazy("Tournament event id"))
    played_from = filters.DateFilter()
    played_to = filters.DateFilter()


class GameListView(generics.ListAPIView):
    """Adjudicated games, newest first; filter by player, context, event and date."""

    serializer_class = GameSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends = [filters.DjangoFilterBackend]
    filterset_class = GameFilter
    queryset = Game.objects.none()

    @extend_schema(tags=["games"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.game_list(viewer=self.request.user)

    def filter_queryset(self, queryset):
        form = self.filterset_class(self.request.query_params, queryset=queryset)
        if not form.is_valid():
            raise serializers.ValidationError(form.errors)
        data: dict = form.form.cleaned_data
        played_from: dt.date | None = data.get("played_from")
        played_to: dt.date | None = data.get("played_to")
        return selectors.game_list(
            viewer=self.request.user,
            player_id=int(data["player"]) if data.get("player") is not None else None,
            context=data.get("context") or "",
            event_id=int(data["event"]) if data.get("event") is not None else None,
            played_from=played_from,
            played_to=played_to,
        )


class GameDetailView(generics.RetrieveAPIView):
    """One game: result, seats and placements, for replay."""

    serializer_class = GameDetailSerializer
    permission_classes = [permissions.AllowAny]
    queryset = Game.objects.none()

    @extend_schema(tags=["games"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_object(self) -> Game:
        try:
            return selectors.game_detail(game_id=self.kwargs["pk"], viewer=self.request.user)
        except Game.DoesNotExist:
            from django.http import Http404

            raise Http404(_("No such game.")) from None
