"""The API of games: the list (filtered by player, context, event and date) and one game."""

from __future__ import annotations

import datetime as dt

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers

from games.models import Game, GameContext
from games.replays import selectors
from games.replays.serializers import GameDetailSerializer, GameSerializer
from tantrix_site.http.filters import BoundedFilterSet, id_filter


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
            raise Http404(_("No such game.")) from None
