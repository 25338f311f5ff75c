from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from players.models import Player
from players.roles import player_of
from tantrix_site.http.permissions import DeclaredPermission, DeclaredViewSetMixin
from tournaments import selectors, services
from tournaments.models import SIDES, Entry, Match, Round, sides_of
from tournaments.permissions import DEADLINES_REFUSAL, can_see
from tournaments.serializers import (
    AgeConfirmationSerializer,
    AuditEntrySerializer,
    ChampionshipSerializer,
    DeadlineSerializer,
    DrawPreviewRequestSerializer,
    DrawPreviewSerializer,
    DrawSerializer,
    EntrySerializer,
    EventSerializer,
    GroupTableSerializer,
    MatchSerializer,
    PenaltySerializer,
    RegisterSerializer,
    RegistrationSerializer,
    RoundSerializer,
    RuleSerializer,
    SeedSerializer,
    StaffSerializer,
    WithdrawSerializer,
)


@extend_schema(tags=["championships"])
class ChampionshipViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    DeclaredViewSetMixin,
    viewsets.GenericViewSet,
):
    """Championships: the public sees published ones; organisers create and manage their own."""

    serializer_class = ChampionshipSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    search_fields = ["name"]
    filterset_fields = ["year", "category", "published"]

    def get_queryset(self):
        return selectors.championships_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        championship = services.championship_create(actor=request.user, **serializer.validated_data)
        return Response(self.get_serializer(championship).data, status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        championship = self.get_object()
        partial = kwargs.pop("partial", False)
        serializer = self.get_serializer(championship, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        championship = services.championship_update(
            actor=request.user, championship=championship, **serializer.validated_data
        )
        return Response(self.get_serializer(championship).data)

    @extend_schema(request=StaffSerializer, responses=ChampionshipSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticatedOrReadOnly, DeclaredPermission],
        permission="manage",
        permission_refusal=gettext_lazy(
            "Only this championship's organisers may change its staff."
        ),
    )
    def staff(self, request, pk=None):
        """Add (or remove, with present=false) a co-organiser or controller."""
        # The declared permission is checked here, before the user is looked up, so the answer
        # never tells which user names exist.
        championship = self.get_object()
        serializer = StaffSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = (
            get_user_model().objects.filter(username=serializer.validated_data["username"]).first()
        )
        if user is None:
            return Response(
                {"username": [_("No user has that name.")]}, status=status.HTTP_400_BAD_REQUEST
            )
        services.championship_staff_set(
            actor=request.user,
            championship=championship,
            user=user,
            role=serializer.validated_data["role"],
            present=serializer.validated_data["present"],
        )
        championship.refresh_from_db()
        return Response(self.get_serializer(championship).data)

    @extend_schema(responses=AuditEntrySerializer(many=True))
    @action(
        filter_backends=[],
        detail=True,
        methods=["get"],
        permission_classes=[permissions.IsAuthenticated, DeclaredPermission],
        permission="see_audit",
    )
    def audit(self, request, pk=None):
        """Every change to this championship (organisers and controllers only)."""
        championship = self.get_object()
        page = self.paginate_queryset(selectors.audit_for(championship))
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)


@extend_schema(tags=["events"])
class EventViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Events (stages) of championships, and the organiser actions that run them."""

    serializer_class = EventSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_fields = ["championship", "format", "status"]

    def get_queryset(self):
        return selectors.events_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        championship = data.pop("championship")
        if not can_see(request.user, championship):
            raise NotFound(_("No such championship."))
        event = services.event_create(actor=request.user, championship=championship, **data)
        return Response(self.get_serializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=EntrySerializer(many=True))
    @action(filter_backends=[], detail=True, methods=["get"])
    def entries(self, request, pk=None):
        event = self.get_object()
        page = self.paginate_queryset(selectors.entries_for_event(event))
        return self.get_paginated_response(EntrySerializer(page, many=True).data)

    @extend_schema(request=RegisterSerializer, responses={201: EntrySerializer})
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def register(self, request, pk=None):
        """Register yourself, or (organisers) any player."""
        event = self.get_object()
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player_id = serializer.validated_data.get("player")
        if player_id is None:
            player = player_of(request.user)
            if player is None:
                return Response(
                    {"player": [_("Your account has no player profile.")]},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        else:
            player = Player.objects.filter(pk=player_id).first()
            if player is None:
                return Response(
                    {"player": [_("There is no player %(id)s.") % {"id": player_id}]},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        entry = services.entry_register(actor=request.user, event=event, player=player)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: AgeConfirmationSerializer})
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        url_path="confirm-age",
        permission_classes=[permissions.IsAuthenticated],
    )
    def confirm_age(self, request, pk=None):
        """Confirm, in your own name, that you meet this junior event's age limit, so that an
        organiser, a captain or a partner may enter you (your date of birth stays private)."""
        confirmation = services.age_confirm(actor=request.user, event=self.get_object())
        return Response(
            AgeConfirmationSerializer(confirmation).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=RegistrationSerializer, responses=EventSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def registration(self, request, pk=None):
        """Open or close registration."""
        serializer = RegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_registration_set(
            actor=request.user, event=self.get_object(), open_=serializer.validated_data["open"]
        )
        return Response(self.get_serializer(event).data)

    @extend_schema(request=SeedSerializer, responses=EntrySerializer(many=True))
    @action(
        pagination_class=None,
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def seed(self, request, pk=None):
        """Seed from ratings (tournament Elo, then lobby ranking) or by a given order."""
        serializer = SeedSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entries = services.event_seed(
            actor=request.user,
            event=self.get_object(),
            order=serializer.validated_data.get("order"),
        )
        return Response(EntrySerializer(entries, many=True).data)

    @extend_schema(request=DrawSerializer, responses=EventSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def draw(self, request, pk=None):
        """Make the draw (bracket, groups, round robin or Swiss round 1). With a preview's
        `token` (and its `draw_seed`), exactly the previewed draw or nothing: a preview outdated
        by changed entries is refused (400) with a fresh one under `fresh`."""
        serializer = DrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        event = self.get_object()
        if "preview" in data:
            try:
                event = services.draw_make(actor=request.user, event=event, **data)
            except services.PreviewOutdated as outdated:
                return Response(
                    {**outdated.message_dict, "fresh": DrawPreviewSerializer(outdated.fresh).data},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        else:
            event = services.draw_generate(actor=request.user, event=event, **data)
        return Response(self.get_serializer(event).data)

    @extend_schema(request=DrawPreviewRequestSerializer, responses=DrawPreviewSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        url_path="draw/preview",
        url_name="draw-preview",
        permission_classes=[permissions.IsAuthenticated],
    )
    def draw_preview(self, request, pk=None):
        """The draw a seed would make (a new random one without `draw_seed`), not stored: make
        it with `POST .../draw/` and `{"draw_seed": ..., "preview": <token>}`."""
        serializer = DrawPreviewRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        preview = services.draw_preview(
            actor=request.user,
            event=self.get_object(),
            draw_seed=serializer.validated_data.get("draw_seed"),
        )
        return Response(DrawPreviewSerializer(preview).data)

    @extend_schema(request=None, responses=EntrySerializer(many=True))
    @action(
        pagination_class=None,
        filter_backends=[],
        detail=True,
        methods=["post"],
        url_path="advance-qualifiers",
        permission_classes=[permissions.IsAuthenticated],
    )
    def advance_qualifiers(self, request, pk=None):
        """Move the qualifiers of the feeding event into this one."""
        created = services.qualifiers_advance(actor=request.user, event=self.get_object())
        return Response(EntrySerializer(created, many=True).data)

    @extend_schema(responses=MatchSerializer(many=True))
    @action(filter_backends=[], detail=True, methods=["get"])
    def matches(self, request, pk=None):
        page = self.paginate_queryset(selectors.matches_for_event(self.get_object()))
        return self.get_paginated_response(MatchSerializer(page, many=True).data)

    @extend_schema(responses=RoundSerializer(many=True))
    @action(filter_backends=[], detail=True, methods=["get"])
    def rounds(self, request, pk=None):
        """The event's rounds and deadlines; set one with `POST /api/rounds/{id}/deadline/`."""
        rounds = self.get_object().rounds.order_by("number")
        page = self.paginate_queryset(rounds)
        return self.get_paginated_response(RoundSerializer(page, many=True).data)

    @extend_schema(responses=GroupTableSerializer(many=True))
    @action(pagination_class=None, filter_backends=[], detail=True, methods=["get"])
    def standings(self, request, pk=None):
        """Group tables on TP% (groups and round robin), or Swiss standings on TPs."""
        event = self.get_object()
        if event.format == "swiss":
            rows = [
                {
                    "entry": e.pk,
                    "player": e.name,
                    "place": i,
                    "seed": e.seed or 0,
                    "games": 0,
                    "tps": tps,
                    "tps_available": 0,
                    "tp_percent": 0,
                }
                for i, (e, tps) in enumerate(selectors.swiss_standings(event), start=1)
            ]
            return Response(GroupTableSerializer([{"group": 1, "rows": rows}], many=True).data)
        return Response(GroupTableSerializer(selectors.group_table_rows(event), many=True).data)


@extend_schema(tags=["events"])
class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = EntrySerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        visible = selectors.events_visible_to(self.request.user).values("pk")
        return Entry.objects.filter(event__in=visible).select_related(*SIDES, "event")

    @extend_schema(request=WithdrawSerializer, responses=EntrySerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def withdraw(self, request, pk=None):
        serializer = WithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = services.entry_withdraw(
            actor=request.user, entry=self.get_object(), reason=serializer.validated_data["reason"]
        )
        return Response(EntrySerializer(entry).data)


@extend_schema(tags=["matches"])
class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches with their games and TPs; rulings, walkover claims and time-penalty claims."""

    serializer_class = MatchSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_fields = ["event", "status", "group"]

    def get_queryset(self):
        visible = selectors.events_visible_to(self.request.user).values("pk")
        return (
            Match.objects.filter(event__in=visible)
            .select_related("round", *sides_of("entry_a"), *sides_of("entry_b"), "event")
            .prefetch_related("match_games")
            .order_by("event", "round__number", "group", "bracket_index", "id")
        )

    @extend_schema(request=RuleSerializer, responses=MatchSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def rule(self, request, pk=None):
        """Organiser or controller ruling (override) with a reason."""
        serializer = RuleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = services.match_rule(
            actor=request.user,
            match=self.get_object(),
            winner_entry_id=serializer.validated_data["winner"],
            reason=serializer.validated_data["reason"],
        )
        return Response(MatchSerializer(selectors.match_detail(match.pk)).data)

    @extend_schema(request=None, responses=MatchSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        url_path="claim-walkover",
        permission_classes=[permissions.IsAuthenticated],
    )
    def claim_walkover(self, request, pk=None):
        """A player declares they were available: at the deadline, with no game, they win."""
        match = services.match_walkover_claim(actor=request.user, match=self.get_object())
        return Response(MatchSerializer(selectors.match_detail(match.pk)).data)

    @extend_schema(request=PenaltySerializer, responses=MatchSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated],
    )
    def penalty(self, request, pk=None):
        """Claim the opponent's time penalty for one game of the match."""
        match = self.get_object()
        serializer = PenaltySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match_game = match.match_games.filter(number=serializer.validated_data["game"]).first()
        if match_game is None:
            return Response(
                {"game": [_("This match has no game with that number.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        services.match_penalty_claim(
            actor=request.user, match_game=match_game, side=serializer.validated_data["side"]
        )
        return Response(MatchSerializer(selectors.match_detail(match.pk)).data)


@extend_schema(tags=["events"])
class RoundViewSet(mixins.RetrieveModelMixin, DeclaredViewSetMixin, viewsets.GenericViewSet):
    serializer_class = RoundSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        visible = selectors.events_visible_to(self.request.user).values("pk")
        return Round.objects.filter(event__in=visible).select_related("event__championship")

    @extend_schema(request=DeadlineSerializer, responses=RoundSerializer)
    @action(
        filter_backends=[],
        detail=True,
        methods=["post"],
        permission_classes=[permissions.IsAuthenticated, DeclaredPermission],
        permission="manage",
        permission_refusal=DEADLINES_REFUSAL,
    )
    def deadline(self, request, pk=None):
        serializer = DeadlineSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = self.get_object()
        round_ = services.round_deadline_set(
            actor=request.user, round_=round_, **serializer.validated_data
        )
        return Response(RoundSerializer(round_).data)
