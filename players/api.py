from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from players import selectors, services
from players.audit.registry import audit_areas, audit_name_objects, is_audit_action
from players.audit.selectors import audit_entries
from players.models import ClaimRequest, ClaimStatus, Player
from players.serializers import (
    AuditTrailEntrySerializer,
    ClaimDecisionSerializer,
    ClaimLinkRedeemSerializer,
    ClaimLinkSerializer,
    ClaimLinkStateSerializer,
    ClaimLinkTokenSerializer,
    ClaimRequestSerializer,
    PlayerSerializer,
    RoleChangeSerializer,
    RoleHolderSerializer,
)
from tantrix_site.http.permissions import has_permission as rule_allows


class PlayerPermission(permissions.BasePermission):
    """Anyone reads; organisers and admins create; a player edits their own profile (the
    declared rules `enter_players` and `edit_player`, players/permissions.py)."""

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if not request.user.is_authenticated:
            return False
        if view.action == "create":
            return rule_allows(request.user, "enter_players")
        return True

    def has_object_permission(self, request, view, obj: Player) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return rule_allows(request.user, "edit_player", obj)


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
    # Ids only: anything else is a 404 from the URL, not a 500 from the lookup.
    lookup_value_regex = r"\d+"
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


# --- Roles ---------------------------------------------------------------------------------


class IsStaff(permissions.BasePermission):
    """The declared rule `manage_roles` (players/permissions.py), in the API's words."""

    message = gettext_lazy("Only staff manage roles and read the audit trail.")

    def has_permission(self, request, view) -> bool:
        return rule_allows(request.user, "manage_roles")


@extend_schema(tags=["roles"])
class RoleListView(generics.ListAPIView):
    """Accounts holding a site-wide role: organisers (group members) and staff. Staff only."""

    permission_classes = [IsStaff]
    serializer_class = RoleHolderSerializer
    filter_backends: list = []

    def get_queryset(self):
        return selectors.role_holders()


class _RoleChangeView(APIView):
    permission_classes = [IsStaff]
    change = staticmethod(services.role_grant)

    def post(self, request):
        serializer = RoleChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = selectors.user_for_name(data["name"])
        self.change(actor=request.user, user=user, role=data["site_role"], reason=data["reason"])
        holder = selectors.user_with_roles(user.pk)
        return Response(RoleHolderSerializer(holder).data)


_ROLE_RESPONSES = {
    200: RoleHolderSerializer,
    400: OpenApiResponse(
        description="Field errors: `name` (unknown, ambiguous, no account, already/not holding "
        "the role), `site_role`, `reason` (required)."
    ),
    403: OpenApiResponse(description="Not staff; or the staff role and not a superuser."),
}


@extend_schema(tags=["roles"], request=RoleChangeSerializer, responses=_ROLE_RESPONSES)
class RoleGrantView(_RoleChangeView):
    """Grant a role: staff grant organiser; only superusers grant staff. Audited."""

    change = staticmethod(services.role_grant)


@extend_schema(tags=["roles"], request=RoleChangeSerializer, responses=_ROLE_RESPONSES)
class RoleWithdrawView(_RoleChangeView):
    """Withdraw a role: staff withdraw organiser; only superusers withdraw staff (never their
    own, nor a superuser's). Audited."""

    change = staticmethod(services.role_withdraw)


@extend_schema(
    tags=["roles"],
    parameters=[
        OpenApiParameter("action", str, description="One action (`action` of an entry)."),
        OpenApiParameter("area", str, enum=["players", "tournaments", "ratings"]),
        OpenApiParameter("player", int, description="Entries about this player."),
        OpenApiParameter("championship", int, description="Entries about this championship."),
        OpenApiParameter("rating_change", int, description="Entries about this rating change."),
    ],
)
class AuditEntryListView(generics.ListAPIView):
    """The one audit trail (roles, profiles, championships, ratings), newest first. Staff only."""

    permission_classes = [IsStaff]
    serializer_class = AuditTrailEntrySerializer
    filter_backends: list = []

    def get_queryset(self):
        params = self.request.query_params
        action, area = params.get("action", ""), params.get("area", "")
        if action and not is_audit_action(action):
            raise serializers.ValidationError({"action": _("Unknown action.")})
        if area and area not in dict(audit_areas()):
            raise serializers.ValidationError({"area": _("Unknown area.")})
        ids = {}
        for name in ("player", "championship", "rating_change"):
            value = params.get(name, "")
            if value and not (value.isdigit() and len(value) <= 18):
                raise serializers.ValidationError({name: _("Give an id (a whole number).")})
            ids[name] = int(value) if value else None
        return audit_entries(
            action=action,
            area=area,
            player_id=ids["player"],
            championship_id=ids["championship"],
            rating_change_id=ids["rating_change"],
        )

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        audit_name_objects(page if page is not None else [])
        return page


@extend_schema(
    tags=["claims"],
    request=None,
    responses={
        201: ClaimLinkSerializer,
        400: OpenApiResponse(description="The player already has an account, or is a robot."),
        403: OpenApiResponse(description="Not staff, nor the organiser who entered the player."),
    },
)
class PlayerClaimLinkView(APIView):
    """A one-time link (14 days) that lets the person take over this accountless player.

    Staff and the organiser who entered the player. The link is in the answer only: the
    token is stored hashed. A new link stops the earlier ones."""

    permission_classes = [permissions.IsAuthenticated]

    def post(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        link, token = services.claim_link_create(actor=request.user, player=player)
        out = {
            "player": {"id": player.pk, "display_name": player.display_name},
            "url": request.build_absolute_uri(reverse("claim-link", args=[token])),
            "expires": link.expires,
        }
        response = Response(ClaimLinkSerializer(out).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


# --- Claims --------------------------------------------------------------------------------


def _gone(exc: services.ClaimLinkError) -> Response:
    code = status.HTTP_404_NOT_FOUND
    if isinstance(exc, services.ClaimLinkGone):
        code = status.HTTP_410_GONE
    return Response({"detail": exc.message, "code": exc.code}, status=code)


_GONE = {
    404: OpenApiResponse(description="No such link."),
    410: OpenApiResponse(
        description="The link cannot be used any more: `code` is `expired`, `used`, `replaced` "
        "or `claimed` (the player already has an account)."
    ),
}


@extend_schema(
    tags=["claims"],
    request=ClaimLinkTokenSerializer,
    responses={200: ClaimLinkStateSerializer, **_GONE},
)
class ClaimLinkCheckView(APIView):
    """Whether a claim link can be used, and for which player. Anyone holding the link."""

    permission_classes = [permissions.AllowAny]

    def post(self, request):
        serializer = ClaimLinkTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            link = services.claim_link_usable(token=serializer.validated_data["token"])
        except services.ClaimLinkError as exc:
            return _gone(exc)
        out = {
            "player": {"id": link.player_id, "display_name": link.player.display_name},
            "expires": link.expires,
        }
        return Response(ClaimLinkStateSerializer(out).data)


@extend_schema(
    tags=["claims"],
    request=ClaimLinkRedeemSerializer,
    responses={
        201: PlayerSerializer,
        400: OpenApiResponse(
            description="Field errors (`username`, `password`...), or the account already has "
            "a player (`non_field_errors`)."
        ),
        **_GONE,
    },
)
class ClaimLinkRedeemView(APIView):
    """Use a claim link. Logged in (an account without a player): the player becomes yours.
    Not logged in: give `username` and `password` (and `email`) to sign up with the player."""

    permission_classes = [permissions.AllowAny]

    def post(self, request):
        serializer = ClaimLinkRedeemSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            if request.user.is_authenticated:
                if data.get("username") or data.get("password"):
                    raise serializers.ValidationError(
                        {"username": _("You are logged in: send only the token.")}
                    )
                player = services.claim_link_redeem(token=data["token"], user=request.user)
            else:
                missing = {
                    name: [_("Needed to sign up with the link.")]
                    for name in ("username", "password")
                    if not data.get(name)
                }
                if missing:
                    raise serializers.ValidationError(missing)
                player = services.claim_link_signup(
                    token=data["token"],
                    username=data["username"],
                    password=data["password"],
                    email=data.get("email", ""),
                )
        except services.ClaimLinkError as exc:
            return _gone(exc)
        out = PlayerSerializer(player, context={"request": request}).data
        return Response(out, status=status.HTTP_201_CREATED)


class ClaimRequestPermission(permissions.BasePermission):
    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj: ClaimRequest) -> bool:
        return rule_allows(request.user, "see_claim", obj)


@extend_schema(tags=["claims"])
class ClaimRequestViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Requests to take over an accountless player ("this is me").

    Anyone logged in without a player may ask (one waiting request at a time). Staff see and
    decide every request; the organiser who entered a player sees and decides its requests;
    everyone sees their own."""

    serializer_class = ClaimRequestSerializer
    permission_classes = [ClaimRequestPermission]
    lookup_value_regex = r"\d+"
    filter_backends: list = []
    queryset = ClaimRequest.objects.none()

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=ClaimStatus.values)],
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        if self.action == "list":
            wanted = self.request.query_params.get("status", "")
            if wanted and wanted not in ClaimStatus.values:
                raise serializers.ValidationError({"status": _("Unknown status.")})
            return selectors.claim_requests_visible_to(self.request.user, status=wanted)
        return ClaimRequest.objects.select_related("player", "requester", "decided_by")

    def get_object(self) -> ClaimRequest:
        claim = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        self.check_object_permissions(self.request, claim)
        return claim

    def perform_create(self, serializer):
        serializer.instance = services.claim_request_create(
            requester=self.request.user,
            player=serializer.validated_data["player"],
            message=serializer.validated_data.get("message", ""),
        )

    def _decide(self, request, decide):
        claim = self.get_object()
        serializer = ClaimDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        claim = decide(
            actor=request.user,
            claim_request=claim,
            reason=serializer.validated_data.get("reason", ""),
        )
        return Response(self.get_serializer(claim).data)

    @extend_schema(request=ClaimDecisionSerializer, responses=ClaimRequestSerializer)
    @action(filter_backends=[], detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Give the player to the requester's account (with its games and ratings). Audited."""
        return self._decide(request, services.claim_request_approve)

    @extend_schema(request=ClaimDecisionSerializer, responses=ClaimRequestSerializer)
    @action(filter_backends=[], detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """Refuse, with a `reason` the requester reads. Audited."""
        return self._decide(request, services.claim_request_refuse)
