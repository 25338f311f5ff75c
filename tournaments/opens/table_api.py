"""API for a table-open table's typed result: read it with its history, dispute it, rule on
it, reopen a ruling (`/api/tables/<match>/...`). Thin: one service per endpoint
(tournaments.opens.services.table_disputes); they raise PermissionDenied (403) and ValidationError
(400)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tantrix_site.http.permissions import has_permission
from tournaments.models import Match
from tournaments.opens.api import TAGS, TableAnswerSerializer, table_answer, visible_event
from tournaments.opens.services.table_disputes import (
    may_dispute,
    table_result_dispute,
    table_result_history,
    table_result_reopen,
    table_result_rule,
)
from tournaments.standings import Table


class HistoryLineSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    by = serializers.CharField(allow_blank=True)
    action = serializers.CharField()
    action_label = serializers.CharField()
    before = serializers.CharField(allow_blank=True)
    after = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(allow_blank=True)


class TableResultAnswerSerializer(TableAnswerSerializer):
    round = serializers.IntegerField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    dispute_reason = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy("For the table's players and the championship's staff"),
    )
    history = HistoryLineSerializer(
        many=True,
        allow_null=True,
        help_text=gettext_lazy("For the table's players and the championship's staff"),
    )


def _table_match(request, pk: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "event__championship", "round", "entry_a__player", "entry_b__player", "table_result"
        ).filter(event__table_open=True, table_result__isnull=False),
        pk=pk,
    )
    visible_event(request, match.event_id)
    return match


def _table_result(request, match: Match) -> dict[str, Any]:
    match.refresh_from_db()
    result = match.table_result
    result.refresh_from_db()
    insider = may_dispute(request.user, match) or has_permission(request.user, "rule", match)
    return {
        **table_answer(Table(number=match.bracket_index + 1, match=match, result=result)),
        "round": match.round.number,
        "state": result.state,
        "state_label": result.get_state_display(),
        "dispute_reason": result.dispute_reason if insider else None,
        "history": [
            {
                "at": line.created,
                "by": line.actor.username if line.actor else line.actor_name,
                "action": line.action,
                "action_label": line.get_action_display(),
                "before": line.details.get("before", line.details.get("result", "")),
                "after": line.details.get("after", ""),
                "reason": line.reason,
            }
            for line in table_result_history(match)
        ]
        if insider
        else None,
    }


class TableReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class TableRulingSerializer(TableReasonSerializer):
    score_a = serializers.IntegerField(
        required=False, help_text=gettext_lazy("With score_b: the corrected sheet")
    )
    score_b = serializers.IntegerField(required=False)
    ending = serializers.CharField(required=False, max_length=10)
    conceded_by = serializers.CharField(required=False, allow_null=True, max_length=1)
    minutes_a = serializers.IntegerField(required=False, allow_null=True)
    minutes_b = serializers.IntegerField(required=False, allow_null=True)


@extend_schema(tags=TAGS, responses=TableResultAnswerSerializer)
@api_view(["GET"])
def table_result_api(request, pk: int):
    """A table-open table's typed result, its state (entered, disputed, ruled) and history."""
    match = _table_match(request, pk)
    return Response(_table_result(request, match))


def _with_reason(request, pk: int, service) -> Response:
    """A table-result step that takes a reason only (a dispute, a reopening)."""
    match = _table_match(request, pk)
    serializer = TableReasonSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    service(actor=request.user, match_id=match.pk, reason=serializer.validated_data["reason"])
    return Response(_table_result(request, match))


@extend_schema(tags=TAGS, request=TableReasonSerializer, responses=TableResultAnswerSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def table_result_dispute_api(request, pk: int):
    """One of the table's two players disputes the typed result, saying why."""
    return _with_reason(request, pk, table_result_dispute)


@extend_schema(tags=TAGS, request=TableRulingSerializer, responses=TableResultAnswerSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def table_result_rule_api(request, pk: int):
    """A controller rules on a disputed result: without scores the typed result stands; with
    score_a and score_b (and optionally ending, conceded_by, minutes) the sheet replaces it."""
    match = _table_match(request, pk)
    serializer = TableRulingSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = dict(serializer.validated_data)
    reason = data.pop("reason")
    table_result_rule(actor=request.user, match_id=match.pk, reason=reason, sheet=data or None)
    return Response(_table_result(request, match))


@extend_schema(tags=TAGS, request=TableReasonSerializer, responses=TableResultAnswerSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def table_result_reopen_api(request, pk: int):
    """An organiser reopens a ruling for a new one."""
    return _with_reason(request, pk, table_result_reopen)


urlpatterns = [
    path("tables/<int:pk>/", table_result_api, name="api-table-result"),
    path("tables/<int:pk>/dispute/", table_result_dispute_api, name="api-table-result-dispute"),
    path("tables/<int:pk>/rule/", table_result_rule_api, name="api-table-result-rule"),
    path("tables/<int:pk>/reopen/", table_result_reopen_api, name="api-table-result-reopen"),
]
