"""The forecasts in the API: `GET /api/events/{id}/forecast/` and `GET /api/matches/{id}/forecast/`.

Whoever may see the championship may read its forecasts (an unpublished championship's are
hidden like the championship: 404). While the latest evaluation did not beat the coin flip the
answers carry no chances, only why and the evaluation's figures.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from tournaments import selectors as tournament_selectors
from tournaments.forecasts import selectors, services
from tournaments.forecasts.events import forecastable
from tournaments.format_words import early_round_style
from tournaments.formats.labels import knockout_round_names
from tournaments.models import EventFormat, ForecastEvaluation, Match, sides_of

TAGS = ["forecasts"]


class EvaluationSerializer(serializers.ModelSerializer):
    """How the forecasts did on the stored history (docs/ratings.md, "Forecasts")."""

    class Meta:
        model = ForecastEvaluation
        fields = [
            "created",
            "games",
            "decisive",
            "brier",
            "log_loss",
            "coin_brier",
            "coin_log_loss",
            "favourite_brier",
            "favourite_log_loss",
            "hit_rate",
            "better",
        ]
        extra_kwargs = {
            "better": {
                "help_text": gettext_lazy(
                    "Better than a coin flip on both scores beyond two standard errors: "
                    "only then are forecasts shown"
                )
            },
        }


class ReachSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    chance = serializers.FloatField()


class EntryForecastSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    win = serializers.FloatField()
    reach = ReachSerializer(many=True)
    qualify = serializers.FloatField(allow_null=True)


class MatchChanceSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    chance_a = serializers.FloatField()
    chance_b = serializers.FloatField()


class RoundNameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class EventForecastSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    shown = serializers.BooleanField()
    ready = serializers.BooleanField()
    explanation = serializers.CharField()
    method = serializers.ChoiceField(
        choices=["exact", "simulation"],
        allow_null=True,
        help_text=gettext_lazy(
            "exact: over the knockout's bracket; simulation: Swiss rounds played out at random"
        ),
    )
    runs = serializers.IntegerField()
    places = serializers.IntegerField()
    rounds = RoundNameSerializer(many=True)
    entries = EntryForecastSerializer(many=True)
    matches = MatchChanceSerializer(many=True)
    evaluation = EvaluationSerializer(allow_null=True)


class MatchForecastSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    shown = serializers.BooleanField()
    chance_a = serializers.FloatField(allow_null=True)
    chance_b = serializers.FloatField(allow_null=True)
    explanation = serializers.CharField()
    evaluation = EvaluationSerializer(allow_null=True)


def _hidden_reason(latest: ForecastEvaluation | None) -> str:
    if latest is None:
        return _("No forecasts yet: they have not been tested on the stored history.")
    return _("No forecasts: on the stored history they were not better than a coin flip.")


def _evaluation(latest: ForecastEvaluation | None):
    return EvaluationSerializer(latest).data if latest is not None else None


@extend_schema(tags=TAGS, responses=EventForecastSerializer)
@api_view(["GET"])
def event_forecast_api(request, pk: int):
    """Each entrant's chance to win a knockout or Swiss event in play, to reach each round of
    the knockout (or to qualify onward from the Swiss), and each open match's chances."""
    event = get_object_or_404(tournament_selectors.events_visible_to(request.user), pk=pk)
    shown = selectors.shown_evaluation()
    answer = {
        "event": event.pk,
        "shown": shown is not None,
        "ready": False,
        "explanation": "",
        "method": None,
        "runs": 0,
        "places": 0,
        "rounds": [],
        "entries": [],
        "matches": [],
        "evaluation": _evaluation(shown or selectors.latest_evaluation()),
    }
    if shown is None:
        answer["explanation"] = _hidden_reason(selectors.latest_evaluation())
        return Response(answer)
    if not forecastable(event):
        answer["explanation"] = _(
            "This event has no forecast: only knockout and Swiss events in play have one."
        )
        return Response(answer)
    forecast = services.event_forecast(event)
    if forecast is None:
        answer["explanation"] = _("The forecast is being worked out; ask again in a moment.")
        return Response(answer)
    style = early_round_style()
    answer.update(
        ready=True,
        method=forecast.method,
        runs=forecast.runs,
        places=forecast.places,
        rounds=[
            {
                "number": r,
                "name": knockout_round_names(
                    r, forecast.last_round, gettext=gettext, style=style
                ).plural,
            }
            for r in forecast.rounds
        ]
        if event.format == EventFormat.KNOCKOUT
        else [],
        entries=[
            {
                "entry": row.entry_id,
                "name": row.name,
                "win": row.win,
                "reach": [{"round": r, "chance": chance} for r, chance in row.reach],
                "qualify": row.qualify,
            }
            for row in forecast.entries
        ],
        matches=[
            {"match": match_id, "chance_a": a, "chance_b": b}
            for match_id, (a, b) in sorted(forecast.matches.items())
        ],
    )
    return Response(EventForecastSerializer(answer).data)


@extend_schema(tags=TAGS, responses=MatchForecastSerializer)
@api_view(["GET"])
def match_forecast_api(request, pk: int):
    """Each side's chance to win an open match (from where it stands if games were played)."""
    visible = tournament_selectors.events_visible_to(request.user).values("pk")
    match = get_object_or_404(
        Match.objects.filter(event__in=visible).select_related(
            "event__championship", *sides_of("entry_a"), *sides_of("entry_b")
        ),
        pk=pk,
    )
    shown = selectors.shown_evaluation()
    answer = {
        "match": match.pk,
        "shown": shown is not None,
        "chance_a": None,
        "chance_b": None,
        "explanation": "",
        "evaluation": _evaluation(shown or selectors.latest_evaluation()),
    }
    if shown is None:
        answer["explanation"] = _hidden_reason(selectors.latest_evaluation())
        return Response(answer)
    chances = selectors.match_forecast(match)
    if chances is None:
        answer["explanation"] = _(
            "This match has no forecast: it is over, or a side is not known yet."
        )
    else:
        answer["chance_a"], answer["chance_b"] = chances
    return Response(MatchForecastSerializer(answer).data)


urlpatterns = [
    path("events/<int:pk>/forecast/", event_forecast_api, name="api-event-forecast"),
    path("matches/<int:pk>/forecast/", match_forecast_api, name="api-match-forecast"),
]
