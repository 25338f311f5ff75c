"""The API of game records: submit one (and read back your own), and a record's verdict."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, permissions, serializers, status
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from games.models import GameRecord, RecordSource
from games.records import envelope, http, selectors, services
from games.records.serializers import (
    RecordListSerializer,
    RecordSerializer,
    RecordSubmitResponseSerializer,
)
from tantrix_site.http.middleware import declared_body_size
from tantrix_site.http.permissions import DeclaredPermission

SUBMIT_DESCRIPTION = """Submit a `tantrix-game/1` record for adjudication.

Send the record as the JSON request body, or upload it as the `record` (or `file`) file of a
multipart form.
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
    # A repeated Idempotency-Key gets the first answer again (tantrix_site/idempotency).
    idempotent = True
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
            actor=request.user, body=received, source=RecordSource.API, extensions=extras
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
    permission_classes = [permissions.IsAuthenticated, DeclaredPermission]
    permission = "see_record"
    permission_refusal = gettext_lazy(
        "Only the submitter, the players in this game and staff may see this record."
    )
    queryset = GameRecord.objects.all()

    @extend_schema(tags=["games"])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_object(self) -> GameRecord:
        record = get_object_or_404(
            GameRecord.objects.select_related("submitter", "game"), pk=self.kwargs["pk"]
        )
        self.check_object_permissions(self.request, record)
        return record
