"""API for doubles and team championships (`/api/...`): registering pairs and answering
requests, teams, rosters and lineups, team matches. Thin: one service or read per endpoint;
services raise PermissionDenied (403) and ValidationError (400 with field messages)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from players.models import Player
from tantrix_site.filters import MAX_INTEGER
from tournaments import selectors, services
from tournaments.models import SIDES, Entry, Event
from tournaments.serializers import REASON_MAX_LENGTH, EntrySerializer

PAIR_TAGS = ["doubles"]


def _event(request, pk: int) -> Event:
    return get_object_or_404(selectors.events_visible_to(request.user), pk=pk)


def _entry(request, pk: int) -> Entry:
    visible = selectors.events_visible_to(request.user).values("pk")
    return get_object_or_404(
        Entry.objects.filter(event__in=visible).select_related(*SIDES, "event__championship"),
        pk=pk,
    )


def _player(field: str, player_id: int | None) -> Player | None:
    if player_id is None:
        return None
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise serializers.ValidationError({field: [f"There is no player {player_id}."]})
    return player


class PairRegisterSerializer(serializers.Serializer):
    partner = serializers.IntegerField(min_value=1, max_value=MAX_INTEGER, help_text="Player id")
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_INTEGER,
        help_text="The other player (organisers); defaults to your own player",
    )


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


@extend_schema(tags=PAIR_TAGS, request=PairRegisterSerializer, responses={201: EntrySerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def pair_register_api(request, pk: int):
    """Register a pair: a player names a partner, who must confirm it (the entry is `pending`
    until then); an organiser names both players and the pair is entered at once."""
    event = _event(request, pk)
    data = PairRegisterSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    entry = services.pair_register(
        actor=request.user,
        event=event,
        partner=_player("partner", data.validated_data["partner"]),
        player=_player("player", data.validated_data.get("player")),
    )
    return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=PAIR_TAGS, request=None, responses=EntrySerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def pair_confirm_api(request, pk: int):
    """The partner named in a pair request confirms it (or an organiser, for them)."""
    entry = services.pair_confirm(actor=request.user, entry=_entry(request, pk))
    return Response(EntrySerializer(entry).data)


@extend_schema(tags=PAIR_TAGS, request=ReasonSerializer, responses={204: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def pair_decline_api(request, pk: int):
    """Either player of a waiting pair (or an organiser) calls it off."""
    data = ReasonSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    services.pair_decline(
        actor=request.user, entry=_entry(request, pk), reason=data.validated_data["reason"]
    )
    return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("events/<int:pk>/register-pair/", pair_register_api, name="api-pair-register"),
    path("entries/<int:pk>/confirm-pair/", pair_confirm_api, name="api-pair-confirm"),
    path("entries/<int:pk>/decline-pair/", pair_decline_api, name="api-pair-decline"),
]
