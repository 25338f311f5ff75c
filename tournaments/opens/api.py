"""API for table opens, tie-breaks, standings and exports (`/api/...`). Thin: one service or
read per endpoint; services raise PermissionDenied (403) and ValidationError (400)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from games.score_sheet import ScoreSheetError, score_sheet_parse
from tantrix_site.http.permissions import has_permission, permission_required
from tournaments import selectors
from tournaments.formats import tiebreaks
from tournaments.models import Entry, Event, Round
from tournaments.opens.services.score_sheets import TableResultsError, table_results_enter
from tournaments.opens.services.table_opens import (
    SYSTEM_LABELS,
    entry_drop,
    entry_late_add,
    open_system,
    table_open_create,
    table_open_start,
)
from tournaments.permissions import STAFF_REFUSAL
from tournaments.services.exports import event_export
from tournaments.services.tiebreaks import event_tiebreaks_set
from tournaments.standings import (
    criteria_labels,
    event_criteria,
    event_standings,
    event_started,
    player_named,
    round_tables,
)

TAGS = ["table opens"]


def visible_event(request, pk: int) -> Event:
    return get_object_or_404(selectors.events_visible_to(request.user), pk=pk)


def _round(request, pk: int) -> Round:
    round_ = get_object_or_404(Round, pk=pk)
    visible_event(request, round_.event_id)
    return round_


def _links(request, event: Event) -> dict[str, Any]:
    def url(name: str, *args: Any) -> str:
        return request.build_absolute_uri(reverse(name, args=args))

    links = {
        "standings_csv": url("event-standings-csv", event.pk),
        "results_csv": url("event-results-csv", event.pk),
        "pairings_csv": {
            r.number: url("open-round-pairings-csv", r.pk) for r in event.rounds.order_by("number")
        },
    }
    if has_permission(request.user, "rule", event):
        links["event_json"] = url("api-event-export", event.pk)
    return links


def _summary(event: Event) -> dict[str, Any]:
    return {
        "id": event.pk,
        "name": event.name,
        "table_open": event.table_open,
        "system": open_system(event),
        "system_label": SYSTEM_LABELS[open_system(event)],
        "swiss_rounds": event.swiss_rounds,
        "status": event.status,
        "status_label": event.get_status_display(),
        "tiebreaks": list(event_criteria(event)),
    }


# --- The answers, for the schema (each endpoint builds its body as plain data) -------------


class EventSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    table_open = serializers.BooleanField()
    system = serializers.CharField()
    system_label = serializers.CharField()
    swiss_rounds = serializers.IntegerField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())


class CriterionSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class StandingRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    status_label = serializers.CharField()
    games = serializers.IntegerField()
    values = serializers.DictField(child=serializers.CharField(allow_null=True))
    separated_by = serializers.CharField(allow_blank=True)


class StandingsSerializer(serializers.Serializer):
    tiebreaks = CriterionSerializer(many=True)
    started = serializers.BooleanField()
    rows = StandingRowSerializer(many=True)
    exports = serializers.DictField(
        help_text=gettext_lazy("Links to the CSV (and, for staff, JSON) exports")
    )


class TieBreaksAnswerSerializer(serializers.Serializer):
    tiebreaks = serializers.ListField(child=serializers.CharField())
    labels = serializers.ListField(child=serializers.CharField())
    started = serializers.BooleanField()
    choices = CriterionSerializer(many=True)


class SheetAnswerSerializer(serializers.Serializer):
    score_a = serializers.IntegerField()
    score_b = serializers.IntegerField()
    ending = serializers.CharField()
    ending_label = serializers.CharField()
    conceded_by = serializers.CharField(allow_null=True)
    minutes_a = serializers.IntegerField(allow_null=True)
    minutes_b = serializers.IntegerField(allow_null=True)


class TableAnswerSerializer(serializers.Serializer):
    table = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField()
    bye = serializers.BooleanField()
    player_a = serializers.CharField(allow_null=True)
    player_b = serializers.CharField(allow_null=True)
    status_label = serializers.CharField()
    tps_a = serializers.CharField()
    tps_b = serializers.CharField()
    result = SheetAnswerSerializer(allow_null=True)


class TablesSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    tables = TableAnswerSerializer(many=True)


class LateEntryAnswerSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    joined_round = serializers.IntegerField()


class DropAnswerSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    left_after_round = serializers.IntegerField(allow_null=True)


class TableOpenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    stage = serializers.IntegerField(min_value=1, max_value=100, default=1)
    system = serializers.ChoiceField(choices=list(SYSTEM_LABELS.items()))
    swiss_rounds = serializers.IntegerField(min_value=0, max_value=50, default=0)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(tiebreaks.CRITERIA)), required=False
    )


@extend_schema(tags=TAGS, request=TableOpenSerializer, responses={201: EventSummarySerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def table_open_create_api(request, pk: int):
    """Create a table open in this championship (its organisers)."""
    championship = get_object_or_404(selectors.championships_visible_to(request.user), pk=pk)
    serializer = TableOpenSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = dict(serializer.validated_data)
    event = table_open_create(
        actor=request.user,
        championship=championship,
        tiebreak_list=data.pop("tiebreaks", None),
        **data,
    )
    return Response(_summary(event), status=status.HTTP_201_CREATED)


class StartSerializer(serializers.Serializer):
    draw_seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)


@extend_schema(tags=TAGS, request=StartSerializer, responses=EventSummarySerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def table_open_start_api(request, pk: int):
    """Start a table open: publish round 1 (a round robin: every round) with table numbers."""
    serializer = StartSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    event = table_open_start(
        actor=request.user,
        event=visible_event(request, pk),
        draw_seed=serializer.validated_data.get("draw_seed"),
    )
    return Response(_summary(event))


@extend_schema(tags=TAGS, responses=StandingsSerializer)
@api_view(["GET"])
def event_standings_api(request, pk: int):
    """The standings on the event's tie-breaks (announced before the start), with export links."""
    event = visible_event(request, pk)
    criteria = event_criteria(event)
    rows = [
        {
            "place": line.place,
            "entry": line.entry.pk,
            "player": line.entry.player_id,
            "player_name": line.player_name,
            "status_label": line.entry.get_status_display(),
            "games": line.games,
            "values": {k: (None if v is None else str(v)) for k, v in line.raw.items()},
            "separated_by": line.separated_by,
        }
        for line in (event_standings(event) if event_started(event) else [])
    ]
    return Response(
        {
            "tiebreaks": [{"key": k, "label": _(tiebreaks.CRITERIA[k].label)} for k in criteria],
            "started": event_started(event),
            "rows": rows,
            "exports": _links(request, event),
        }
    )


class TieBreaksSerializer(serializers.Serializer):
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=40), max_length=9)
    confirm = serializers.BooleanField(default=False)
    reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


@extend_schema(tags=TAGS, request=TieBreaksSerializer, responses=TieBreaksAnswerSerializer)
@api_view(["GET", "PUT"])
@permission_classes([IsAuthenticatedOrReadOnly])
def event_tiebreaks_api(request, pk: int):
    """Read the tie-break list; organisers change it (after the start only with confirm=true)."""
    event = visible_event(request, pk)
    if request.method == "PUT":
        serializer = TieBreaksSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = event_tiebreaks_set(
            actor=request.user,
            event=event,
            criteria=data["tiebreaks"],
            confirm=data["confirm"],
            reason=data["reason"],
        )
    return Response(
        {
            "tiebreaks": list(event_criteria(event)),
            "labels": criteria_labels(event_criteria(event)),
            "started": event_started(event),
            "choices": [{"key": c.key, "label": _(c.label)} for c in tiebreaks.CRITERIA.values()],
        }
    )


def table_answer(t) -> dict[str, Any]:
    m = t.match
    result = None
    if t.result is not None:
        r = t.result
        result = {
            "score_a": r.score_a,
            "score_b": r.score_b,
            "ending": r.ending,
            "ending_label": r.get_ending_display(),
            "conceded_by": None if r.conceded_by is None else "ab"[r.conceded_by],
            "minutes_a": r.minutes_a,
            "minutes_b": r.minutes_b,
        }
    return {
        "table": None if m.is_bye else t.number,
        "match": m.pk,
        "bye": m.is_bye,
        "player_a": m.entry_a.player.display_name if m.entry_a else None,
        "player_b": m.entry_b.player.display_name if m.entry_b else None,
        "status_label": m.get_status_display(),
        "tps_a": str(m.tps_a),
        "tps_b": str(m.tps_b),
        "result": result,
    }


@extend_schema(tags=TAGS, responses=TablesSerializer)
@api_view(["GET"])
def round_tables_api(request, pk: int):
    """A round's pairings with table numbers, and each table's typed result."""
    round_ = _round(request, pk)
    return Response(
        {"round": round_.number, "tables": [table_answer(t) for t in round_tables(round_)]}
    )


class ResultsSerializer(serializers.Serializer):
    results = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=1024)


@extend_schema(tags=TAGS, request=ResultsSerializer, responses=TablesSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=_round, refusal=STAFF_REFUSAL)
def round_results_api(request, round_: Round):
    """Enter a round's results from the score sheets, all or nothing.

    Body: {"results": [{"table": 1, "score_a": 24, "score_b": 17, "ending": "completed",
    "conceded_by": null, "minutes_a": 25, "minutes_b": 27}, ...]}. A refusal answers 400 with
    the messages per table and field: {"results": {"3": {"score_a": ["..."]}}}."""
    serializer = ResultsSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    sheets: dict[int, dict] = {}
    errors: dict[str, Any] = {}
    for index, row in enumerate(serializer.validated_data["results"]):
        table = row.get("table")
        if isinstance(table, bool) or not isinstance(table, int) or table < 1:
            errors[f"item {index + 1}"] = {"table": [_("Give the table number (1, 2, ...).")]}
        elif table in sheets:
            errors[str(table)] = {
                "table": [_("Table %(table)s is given twice.") % {"table": table}]
            }
        else:
            sheets[table] = row
    if errors:  # say everything at once: the sheets' own problems too
        for table, row in sheets.items():
            try:
                score_sheet_parse(row)
            except ScoreSheetError as exc:
                errors.setdefault(str(table), {}).update(exc.errors)
    try:
        if errors:
            raise TableResultsError(errors)
        table_results_enter(actor=request.user, round_=round_, sheets=sheets)
    except TableResultsError as exc:
        return Response({"results": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
    return Response(
        {"round": round_.number, "tables": [table_answer(t) for t in round_tables(round_)]}
    )


class LateEntrySerializer(serializers.Serializer):
    player = serializers.CharField(
        max_length=40, help_text=gettext_lazy("The player's id or display name")
    )


@extend_schema(tags=TAGS, request=LateEntrySerializer, responses={201: LateEntryAnswerSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=visible_event, refusal=STAFF_REFUSAL)
def late_entry_api(request, event: Event):
    """A late entry to a Swiss table open (its organisers and controllers)."""
    serializer = LateEntrySerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    text = serializer.validated_data["player"].strip()
    player = player_named(text)
    if player is None:
        raise serializers.ValidationError(
            {"player": [_("No player is named %(name)s.") % {"name": repr(text)}]}
        )
    entry = entry_late_add(actor=request.user, event=event, player=player)
    return Response(
        {"entry": entry.pk, "player": player.pk, "joined_round": entry.joined_round},
        status=status.HTTP_201_CREATED,
    )


class DropSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)


@extend_schema(tags=TAGS, request=DropSerializer, responses=DropAnswerSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_drop_api(request, pk: int):
    """A player drops out of a table open (its organisers and controllers)."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=pk)
    visible_event(request, entry.event_id)
    serializer = DropSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    entry = entry_drop(actor=request.user, entry=entry, reason=serializer.validated_data["reason"])
    return Response({"entry": entry.pk, "left_after_round": entry.left_after_round})


@extend_schema(tags=TAGS, responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@permission_required("rule", lookup=visible_event, refusal=STAFF_REFUSAL)
def event_export_api(request, event: Event):
    """The whole event as JSON, for `manage.py import_event` (its organisers and controllers)."""
    return Response(event_export(event))


urlpatterns = [
    path(
        "championships/<int:pk>/table-opens/", table_open_create_api, name="api-table-open-create"
    ),
    path("events/<int:pk>/open/start/", table_open_start_api, name="api-table-open-start"),
    path("events/<int:pk>/ranked-standings/", event_standings_api, name="api-event-standings"),
    path("events/<int:pk>/tiebreaks/", event_tiebreaks_api, name="api-event-tiebreaks"),
    path("events/<int:pk>/late-entries/", late_entry_api, name="api-late-entry"),
    path("events/<int:pk>/export/", event_export_api, name="api-event-export"),
    path("rounds/<int:pk>/tables/", round_tables_api, name="api-round-tables"),
    path("rounds/<int:pk>/results/", round_results_api, name="api-round-results"),
    path("entries/<int:pk>/drop/", entry_drop_api, name="api-entry-drop"),
]
