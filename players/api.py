from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.response import Response

from players import selectors, services
from players.models import Player
from players.roles import is_admin, is_organiser
from players.serializers import PlayerSerializer


class PlayerPermission(permissions.BasePermission):
    """Anyone reads; organisers and admins create; a player edits their own profile."""

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if not request.user.is_authenticated:
            return False
        if view.action == "create":
            return is_organiser(request.user) or is_admin(request.user)
        return True

    def has_object_permission(self, request, view, obj: Player) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return services.can_edit_player(request.user, obj)


@extend_schema(tags=["players"])
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Players: list with `search` and `country`, detail, create, and edit own profile."""

    serializer_class = PlayerSerializer
    permission_classes = [PlayerPermission]
    filter_backends: list = []
    queryset = Player.objects.none()

    def get_queryset(self):
        if self.action == "list":
            return selectors.player_list(
                search=self.request.query_params.get("search", ""),
                country=self.request.query_params.get("country", ""),
            )
        return Player.objects.all()

    def get_object(self) -> Player:
        player = get_object_or_404(Player, pk=self.kwargs["pk"])
        self.check_object_permissions(self.request, player)
        return player

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_create(actor=request.user, **serializer.validated_data)
        out = self.get_serializer(player)
        return Response(out.data, status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        player = self.get_object()
        partial = kwargs.pop("partial", False) or request.method == "PATCH"
        serializer = self.get_serializer(player, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        player = services.player_update(
            actor=request.user, player=player, **serializer.validated_data
        )
        return Response(self.get_serializer(player).data)
