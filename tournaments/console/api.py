"""The round console in the API: `GET /api/rounds/{id}/console/`, `POST
/api/rounds/{id}/remind/` (every unplayed match) and `POST /api/matches/{id}/remind/`."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tantrix_site.http.permissions import permission_required
from tournaments.console import selectors, services
from tournaments.pages.lookups import match_or_404, round_or_404
from tournaments.permissions import STAFF_REFUSAL


class ConsoleRowSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match.pk")
    side_a = serializers.CharField(allow_null=True)
    side_b = serializers.CharField(allow_null=True)
    group = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    standing = serializers.ChoiceField(choices=selectors.Standing.ALL)
    deadline = serializers.DateTimeField(allow_null=True)
    reminded_at = serializers.DateTimeField(allow_null=True)
    agreed_time = serializers.DateTimeField(source="agreed_at", allow_null=True)
    can_remind = serializers.BooleanField()


class RoundConsoleSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    name = serializers.CharField(source="round")
    counts = serializers.DictField(child=serializers.IntegerField())
    matches = ConsoleRowSerializer(many=True, source="rows")


class RemindedSerializer(serializers.Serializer):
    reminded = serializers.ListField(child=serializers.IntegerField())
    skipped = serializers.ListField(child=serializers.IntegerField())
    told = serializers.IntegerField(required=False)


@extend_schema(tags=["championships"], responses=RoundConsoleSerializer)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_console_api(request, round_):
    """The round's matches for its organisers and controllers: counts played / waiting /
    overdue / disputed, each match with its standing, deadline and last reminder."""
    return Response(RoundConsoleSerializer(selectors.round_console(round_)).data)


@extend_schema(tags=["championships"], request=None, responses=RemindedSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=round_or_404, refusal=STAFF_REFUSAL)
def round_remind_api(request, round_):
    """Remind the players of every unplayed match (those reminded within the hour skipped)."""
    done = services.round_remind_unplayed(actor=request.user, round_=round_)
    return Response(
        {
            "reminded": [row.match.pk for row in done.reminded],
            "skipped": [row.match.pk for row in done.skipped],
        }
    )


@extend_schema(tags=["championships"], request=None, responses=RemindedSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=match_or_404, refusal=STAFF_REFUSAL)
def match_remind_api(request, match):
    """Remind one match's players (a notice and an email); at most once an hour (400 says when
    the next may go)."""
    told = services.match_remind(actor=request.user, match=match)
    return Response({"reminded": [match.pk], "skipped": [], "told": told})


urlpatterns = [
    path("rounds/<int:pk>/console/", round_console_api, name="api-round-console"),
    path("rounds/<int:pk>/remind/", round_remind_api, name="api-round-remind"),
    path("matches/<int:pk>/remind/", match_remind_api, name="api-match-remind"),
]
