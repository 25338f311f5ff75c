"""Arranging a match in the API (issue 30).

- `GET /api/matches/{id}/arrangement/`: the agreed time (everyone who sees the match); the open
  proposals, the withdrawn agreements and the no-show claims too for its players and staff.
- `PUT /api/matches/{id}/arrangement/`: an organiser sets the time; `POST .../withdraw/`: a
  player of the match or an organiser withdraws the agreed time, with a reason.
- `POST /api/matches/{id}/proposals/`: a player proposes times; `POST .../{pid}/accept/`, the
  opponent accepts one; `POST .../{pid}/withdraw/`, the proposer takes one back.
- `POST /api/matches/{id}/no-show/` and `POST /api/matches/{id}/no-show/{cid}/answer/`.
- `GET /api/events/{id}/arrangements/?show=unarranged|passed|all`, `POST .../nudge/`,
  `PUT .../policy/`: the organisers'.
- `GET|PUT /api/arrangements/availability/`: the signed-in player's usual free times.

Times are answered in the reader's zone (with its offset). A time sent without an offset is read
in `time_zone` when given (an IANA name; an unknown one is a 400 on `time_zone`), else in the
reader's own zone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from players.preferences.timezones import zone_for
from players.roles import player_of
from tantrix_site.http.answers import answer_service_errors
from tantrix_site.http.filters import MAX_INTEGER
from tantrix_site.http.permissions import has_permission, permission_required
from tournaments.arrangements import selectors, services
from tournaments.arrangements.times import moment_in, zone_named
from tournaments.models import MatchArrangement, MatchProposal, NoShowClaim
from tournaments.pages.lookups import event_or_404, match_or_404

TAGS = ["arrangements"]


def in_readers_zone(view: Callable) -> Callable:
    """Run the view in the reader's own zone. The site's middleware activates it for a session;
    an API client authenticated by DRF (a token) is known only inside the view."""

    @wraps(view)
    def zoned(request, *args: Any, **kwargs: Any):
        player = player_of(request.user)
        zone = (zone_for(player.time_zone) if player else None) or timezone.get_default_timezone()
        with timezone.override(zone):
            return view(request, *args, **kwargs)

    return zoned


class ArrangementSerializer(serializers.ModelSerializer):
    source_label = serializers.CharField(source="get_source_display", read_only=True)

    class Meta:
        model = MatchArrangement
        fields = [
            "id",
            "match",
            "starts_at",
            "agreed_at",
            "source",
            "source_label",
            "status",
            "withdrawn_at",
            "withdraw_reason",
        ]


class ProposalSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchProposal
        fields = ["id", "match", "side", "starts_at", "note", "status", "created"]


class NoShowSerializer(serializers.ModelSerializer):
    agreed_time = serializers.DateTimeField(source="arrangement.starts_at", read_only=True)

    class Meta:
        model = NoShowClaim
        fields = [
            "id",
            "match",
            "side",
            "arrangement",
            "agreed_time",
            "message",
            "created",
            "reply",
            "replied_at",
        ]


class ArrangementStateSerializer(serializers.Serializer):
    agreed = ArrangementSerializer(allow_null=True)
    proposals = ProposalSerializer(many=True, required=False)
    withdrawn = ArrangementSerializer(many=True, required=False)
    no_show_claims = NoShowSerializer(many=True, required=False)


def _moments(values: list[str], zone_name: str, field: str) -> list[dt.datetime]:
    """Times as sent: ISO 8601; one without an offset is read in the named zone (or the
    reader's)."""
    zone = zone_named(zone_name) if zone_name else timezone.get_current_timezone()
    moments = []
    for value in values:
        try:
            moment = parse_datetime(value)
        except ValueError:
            moment = None
        if moment is None:
            raise serializers.ValidationError(
                {field: [_("%(value)s is not a date and time (ISO 8601).") % {"value": value}]}
            )
        moments.append(moment_in(moment, zone))
    return moments


class ProposeSerializer(serializers.Serializer):
    times = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=1,
        max_length=services.MAX_PROPOSALS,
        help_text=gettext_lazy("ISO 8601 date-times, e.g. 2026-12-05T19:30"),
    )
    time_zone = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text=gettext_lazy("The zone of times without an offset; default: your own"),
    )
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)


class SetTimeSerializer(serializers.Serializer):
    starts_at = serializers.CharField(max_length=40)
    time_zone = serializers.CharField(required=False, allow_blank=True, default="", max_length=64)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)


class WithdrawReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, allow_blank=True)


class NoShowMessageSerializer(serializers.Serializer):
    message = serializers.CharField(max_length=2000, allow_blank=True)


class NudgeSerializer(serializers.Serializer):
    matches = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INTEGER), max_length=1000
    )


class PolicySerializer(serializers.Serializer):
    response_hours = serializers.IntegerField(allow_null=True, min_value=1, max_value=24 * 30)


class WindowSerializer(serializers.Serializer):
    weekday = serializers.IntegerField(min_value=0, max_value=6)
    starts = serializers.TimeField()
    ends = serializers.TimeField()


class AvailabilitySerializer(serializers.Serializer):
    time_zone = serializers.CharField(max_length=64)
    windows = WindowSerializer(many=True, max_length=services.MAX_WINDOWS)


class ToArrangeSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="pk")
    round = serializers.IntegerField(source="round.number")
    side_a = serializers.CharField(source="entry_a.name")
    side_b = serializers.CharField(source="entry_b.name")
    agreed_time = serializers.SerializerMethodField()
    open_proposals = serializers.SerializerMethodField()
    deadline = serializers.DateTimeField(source="round.deadline", allow_null=True)

    def get_agreed_time(self, match) -> dt.datetime | None:
        if not match.agreed:
            return None
        return serializers.DateTimeField().to_representation(match.agreed[0].starts_at)

    def get_open_proposals(self, match) -> int:
        return len(match.open_proposals)


# --- A match ------------------------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses=ArrangementStateSerializer)
@extend_schema(
    tags=TAGS, methods=["PUT"], request=SetTimeSerializer, responses={201: ArrangementSerializer}
)
@api_view(["GET", "PUT"])
@permission_required("see", lookup=match_or_404)
@in_readers_zone
def arrangement_api(request, match):
    """The match's agreed time (and, for its players and staff, the proposals and claims); an
    organiser sets the time with PUT."""
    if request.method == "PUT":
        if not has_permission(request.user, "manage", match):
            raise PermissionDenied(_("Only this championship's organisers may do that."))
        data = SetTimeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        starts_at = answer_service_errors(
            lambda: _moments(
                [data.validated_data["starts_at"]], data.validated_data["time_zone"], "starts_at"
            )[0]
        )
        made = answer_service_errors(
            lambda: services.arrangement_set(
                actor=request.user,
                match=match,
                starts_at=starts_at,
                reason=data.validated_data["reason"],
            )
        )
        return Response(ArrangementSerializer(made).data, status=status.HTTP_201_CREATED)
    answer = {"agreed": selectors.agreement_of(match)}
    if has_permission(request.user, "see_arrangement", match):
        answer["proposals"] = selectors.open_proposals(match)
        answer["withdrawn"] = [
            a for a in selectors.arrangement_history(match) if a.status != "agreed"
        ]
        answer["no_show_claims"] = selectors.no_show_claims(match)
    return Response(ArrangementStateSerializer(answer).data)


@extend_schema(tags=TAGS, request=WithdrawReasonSerializer, responses=ArrangementSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange_or_manage", lookup=match_or_404)
@in_readers_zone
def arrangement_withdraw_api(request, match):
    data = WithdrawReasonSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    withdrawn = answer_service_errors(
        lambda: services.arrangement_withdraw(
            actor=request.user, match=match, reason=data.validated_data["reason"]
        )
    )
    return Response(ArrangementSerializer(withdrawn).data)


@extend_schema(tags=TAGS, request=ProposeSerializer, responses={201: ProposalSerializer(many=True)})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange", lookup=match_or_404)
@in_readers_zone
def proposals_api(request, match):
    """Propose one or more times (the opponent's open proposals are set aside)."""
    data = ProposeSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    times = answer_service_errors(
        lambda: _moments(data.validated_data["times"], data.validated_data["time_zone"], "times")
    )
    made = answer_service_errors(
        lambda: services.proposals_make(
            actor=request.user, match=match, times=times, note=data.validated_data["note"]
        )
    )
    return Response(ProposalSerializer(made, many=True).data, status=status.HTTP_201_CREATED)


def _proposal(match, proposal: int) -> MatchProposal:
    return get_object_or_404(
        MatchProposal.objects.select_related("match"), pk=proposal, match=match
    )


@extend_schema(tags=TAGS, request=None, responses={201: ArrangementSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange", lookup=match_or_404)
@in_readers_zone
def proposal_accept_api(request, match, proposal: int):
    """The opponent accepts a proposed time: it is the agreement."""
    found = _proposal(match, proposal)
    made = answer_service_errors(
        lambda: services.proposal_accept(actor=request.user, proposal=found)
    )
    return Response(ArrangementSerializer(made).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS, request=None, responses=ProposalSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange", lookup=match_or_404)
@in_readers_zone
def proposal_withdraw_api(request, match, proposal: int):
    """The proposing side takes back a time not yet answered."""
    found = _proposal(match, proposal)
    done = answer_service_errors(
        lambda: services.proposal_withdraw(actor=request.user, proposal=found)
    )
    return Response(ProposalSerializer(done).data)


@extend_schema(tags=TAGS, request=NoShowMessageSerializer, responses={201: NoShowSerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange", lookup=match_or_404)
@in_readers_zone
def no_show_api(request, match):
    """After the agreed time: the other side did not appear (also the side's walkover claim)."""
    data = NoShowMessageSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    claim = answer_service_errors(
        lambda: services.no_show_claim(
            actor=request.user, match=match, message=data.validated_data["message"]
        )
    )
    return Response(NoShowSerializer(claim).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS, request=NoShowMessageSerializer, responses=NoShowSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("arrange", lookup=match_or_404)
@in_readers_zone
def no_show_answer_api(request, match, claim: int):
    """The other side answers a no-show claim."""
    found = get_object_or_404(NoShowClaim.objects.select_related("match"), pk=claim, match=match)
    data = NoShowMessageSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    done = answer_service_errors(
        lambda: services.no_show_reply(
            actor=request.user, claim=found, message=data.validated_data["message"]
        )
    )
    return Response(NoShowSerializer(done).data)


# --- An event's organisers -------------------------------------------------------------------


@extend_schema(tags=TAGS, responses=ToArrangeSerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=event_or_404)
@in_readers_zone
def event_arrangements_api(request, event):
    """The event's open matches: `show=unarranged` (default), `passed` (agreed time passed,
    no game played) or `all`."""
    show = request.query_params.get("show", "unarranged")
    if show not in ("unarranged", "passed", "all"):
        raise serializers.ValidationError({"show": [_("Choose unarranged, passed or all.")]})
    matches = selectors.matches_to_arrange(event=event, which=show)
    return Response(ToArrangeSerializer(matches, many=True).data)


@extend_schema(tags=TAGS, request=NudgeSerializer, responses={200: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=event_or_404)
@in_readers_zone
def event_nudge_api(request, event):
    """Remind the players of the listed open matches (a notice and an e-mail each)."""
    data = NudgeSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    count = answer_service_errors(
        lambda: services.matches_nudge(
            actor=request.user, event=event, match_ids=data.validated_data["matches"]
        )
    )
    return Response({"nudged": count})


@extend_schema(tags=TAGS, request=PolicySerializer, responses=PolicySerializer)
@api_view(["PUT"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=event_or_404)
@in_readers_zone
def event_policy_api(request, event):
    """The event's response window (hours; null: no automatic acceptance)."""
    data = PolicySerializer(data=request.data)
    data.is_valid(raise_exception=True)
    policy = answer_service_errors(
        lambda: services.arrangement_policy_set(
            actor=request.user, event=event, response_hours=data.validated_data["response_hours"]
        )
    )
    return Response({"response_hours": policy.response_hours})


# --- A player's usual free times -------------------------------------------------------------


@extend_schema(tags=TAGS, methods=["GET"], responses=AvailabilitySerializer)
@extend_schema(
    tags=TAGS, methods=["PUT"], request=AvailabilitySerializer, responses=AvailabilitySerializer
)
@api_view(["GET", "PUT"])
@permission_classes([IsAuthenticated])
@in_readers_zone
def availability_api(request):
    """Your usual free times: weekdays (0 = Monday) and times of day in your zone."""
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(_("Only a player states when they are usually free."))
    if request.method == "PUT":
        data = AvailabilitySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        windows = [(w["weekday"], w["starts"], w["ends"]) for w in data.validated_data["windows"]]
        answer_service_errors(
            lambda: services.availability_set(
                actor=request.user,
                player=player,
                windows=windows,
                time_zone=data.validated_data["time_zone"],
            )
        )
    windows = selectors.availability_of(player)
    return Response(
        {
            "time_zone": windows[0].time_zone if windows else (player.time_zone or "UTC"),
            "windows": [
                {"weekday": w.weekday, "starts": w.starts, "ends": w.ends} for w in windows
            ],
        }
    )


urlpatterns = [
    path("matches/<int:pk>/arrangement/", arrangement_api, name="api-match-arrangement"),
    path(
        "matches/<int:pk>/arrangement/withdraw/",
        arrangement_withdraw_api,
        name="api-match-arrangement-withdraw",
    ),
    path("matches/<int:pk>/proposals/", proposals_api, name="api-match-proposals"),
    path(
        "matches/<int:pk>/proposals/<int:proposal>/accept/",
        proposal_accept_api,
        name="api-match-proposal-accept",
    ),
    path(
        "matches/<int:pk>/proposals/<int:proposal>/withdraw/",
        proposal_withdraw_api,
        name="api-match-proposal-withdraw",
    ),
    path("matches/<int:pk>/no-show/", no_show_api, name="api-match-no-show"),
    path(
        "matches/<int:pk>/no-show/<int:claim>/answer/",
        no_show_answer_api,
        name="api-match-no-show-answer",
    ),
    path("events/<int:pk>/arrangements/", event_arrangements_api, name="api-event-arrangements"),
    path(
        "events/<int:pk>/arrangements/nudge/",
        event_nudge_api,
        name="api-event-arrangements-nudge",
    ),
    path(
        "events/<int:pk>/arrangements/policy/",
        event_policy_api,
        name="api-event-arrangements-policy",
    ),
    path("arrangements/availability/", availability_api, name="api-arrangement-availability"),
]
