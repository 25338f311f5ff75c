"""Bulk entry in the API: `POST /api/events/{id}/bulk-entry/match/` (the lines matched, nothing
stored) and `POST /api/events/{id}/bulk-entry/` (the choices confirmed: all or nothing)."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tantrix_site.http.permissions import permission_required
from tournaments.bulk_entry import selectors, services
from tournaments.bulk_entry.matching import MAX_LINES, Line, TooManyLines, parse_pasted
from tournaments.pages.lookups import event_or_404

TAGS = ["championships"]


class RowSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")


class MatchRequestSerializer(serializers.Serializer):
    names = serializers.CharField(
        required=False,
        help_text=gettext_lazy(
            "One name a line, optionally followed by a comma and the country code."
        ),
    )
    rows = RowSerializer(many=True, required=False, max_length=MAX_LINES)

    def validate(self, attrs):
        if not attrs.get("names") and not attrs.get("rows"):
            raise serializers.ValidationError({"names": _("Give the names as text or as rows.")})
        return attrs


class PlayerBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")
    country = serializers.CharField(source="country.code")


class LineMatchSerializer(serializers.Serializer):
    line = serializers.IntegerField(source="line.number")
    name = serializers.CharField(source="line.name")
    country = serializers.CharField(source="line.country")
    exact = PlayerBriefSerializer(allow_null=True)
    entered = serializers.BooleanField()
    suggestions = PlayerBriefSerializer(many=True, source="suggested")
    default = serializers.CharField(source="default_choice")


class ChoiceSerializer(serializers.Serializer):
    line = serializers.IntegerField(min_value=1)
    name = serializers.CharField(max_length=40)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")
    player = serializers.IntegerField(required=False, allow_null=True, default=None)
    create = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs):
        if attrs["player"] is not None and attrs["create"]:
            raise serializers.ValidationError(
                {"create": _("Name an existing player or create a new one, not both.")}
            )
        return attrs


class ConfirmSerializer(serializers.Serializer):
    lines = ChoiceSerializer(many=True, max_length=MAX_LINES, min_length=1)


class BulkEnteredSerializer(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField())
    created = serializers.ListField(child=serializers.IntegerField())


@extend_schema(tags=TAGS, request=MatchRequestSerializer, responses=LineMatchSerializer(many=True))
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=event_or_404)
def bulk_entry_match_api(request, event):
    """Each line matched to the site's players: the player of exactly that name, close
    suggestions, whether already entered. Nothing is stored."""
    serializer = MatchRequestSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    if data.get("rows"):
        lines = [
            Line(n, " ".join(row["name"].split()), row["country"].upper())
            for n, row in enumerate(data["rows"], start=1)
        ]
    else:
        try:
            lines = parse_pasted(data["names"], selectors.country_codes())
        except TooManyLines:
            return Response(
                {
                    "names": [
                        ngettext(
                            "Up to %(count)s line at once.",
                            "Up to %(count)s lines at once.",
                            MAX_LINES,
                        )
                        % {"count": MAX_LINES}
                    ]
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
    matched = selectors.lines_matched(event, lines)
    return Response(LineMatchSerializer(matched, many=True).data)


@extend_schema(tags=TAGS, request=ConfirmSerializer, responses={201: BulkEnteredSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=event_or_404)
def bulk_entry_api(request, event):
    """Enter the chosen players (`player`), create the new ones (`create`, with `country`) as
    players without an account; a line with neither is left out. All or nothing: a refusal
    (400) gives each failing line's reasons under `lines`."""
    serializer = ConfirmSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    choices = [
        services.Choice(
            line=c["line"],
            name=" ".join(c["name"].split()),
            country=c["country"].upper(),
            player_id=c["player"],
            create=c["create"],
        )
        for c in serializer.validated_data["lines"]
    ]
    try:
        done = services.bulk_enter(actor=request.user, event=event, choices=choices)
    except services.LinesRefused as refused:
        return Response(
            {
                "detail": refused.messages[0],
                "lines": {str(line): reasons for line, reasons in refused.lines.items()},
            },
            status=status.HTTP_400_BAD_REQUEST,
        )
    return Response(
        {"entries": [e.pk for e in done.entries], "created": [p.pk for p in done.created]},
        status=status.HTTP_201_CREATED,
    )


urlpatterns = [
    path("events/<int:pk>/bulk-entry/match/", bulk_entry_match_api, name="api-bulk-entry-match"),
    path("events/<int:pk>/bulk-entry/", bulk_entry_api, name="api-bulk-entry"),
]
