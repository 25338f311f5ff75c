"""API for doubles and team championships (`/api/...`): registering pairs and answering
requests, teams, rosters and lineups, team matches. Thin: one service or read per endpoint;
services raise PermissionDenied (403) and ValidationError (400 with field messages)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from players.models import Player
from tantrix_site.http.filters import MAX_INTEGER
from tantrix_site.http.permissions import check_permission, permission_required
from tournaments import selectors, services
from tournaments.models import SIDES, Championship, Entry, Event, Match, Round, Team, sides_of
from tournaments.permissions import CAPTAIN_REFUSAL, DEADLINES_REFUSAL, TEAMS_REFUSAL
from tournaments.serializers import REASON_MAX_LENGTH, EntrySerializer, RoundSerializer
from tournaments.sides.services.teams import captain_lock

PAIR_TAGS = ["doubles"]
TEAM_TAGS = ["teams"]


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
        raise serializers.ValidationError(
            {field: [_("There is no player %(id)s.") % {"id": player_id}]}
        )
    return player


class PairRegisterSerializer(serializers.Serializer):
    partner = serializers.IntegerField(
        min_value=1, max_value=MAX_INTEGER, help_text=gettext_lazy("Player id")
    )
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_INTEGER,
        help_text=gettext_lazy("The other player (organisers); defaults to your own player"),
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


# --- Teams ----------------------------------------------------------------------------------


def _players(field: str, ids: list[int]) -> list[Player]:
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise serializers.ValidationError(
            {field: [_("There is no player %(id)s.") % {"id": ", ".join(map(str, missing))}]}
        )
    return [found[pk] for pk in ids]


class RosterMemberSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.display_name")
    country = serializers.CharField(source="player.country.code")


class RosterChangeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    kind_label = serializers.CharField(source="get_kind_display")
    actor = serializers.CharField(source="actor.username", default=None, allow_null=True)
    before = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    after = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    reason = serializers.CharField()
    created = serializers.DateTimeField()


class TeamSerializer(serializers.ModelSerializer):
    country = serializers.CharField(source="country.code", read_only=True)
    captain_name = serializers.CharField(
        source="captain.display_name", default=None, read_only=True, allow_null=True
    )
    deputy_name = serializers.CharField(
        source="deputy.display_name", default=None, read_only=True, allow_null=True
    )
    roster = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField()
    captain_lock = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = [
            "id",
            "championship",
            "name",
            "country",
            "region_countries",
            "captain",
            "captain_name",
            "deputy",
            "deputy_name",
            "roster",
            "captain_lock",
            "changes",
            "created",
        ]
        read_only_fields = fields

    def get_roster(self, team: Team) -> list[dict]:
        return RosterMemberSerializer(selectors.team_roster(team), many=True).data

    def get_changes(self, team: Team) -> list[dict]:
        return RosterChangeSerializer(selectors.roster_changes(team), many=True).data

    def get_captain_lock(self, team: Team) -> str | None:
        """Why the captain and deputy may not change the roster now (null: they may)."""
        return captain_lock(team)


class TeamCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")
    region_countries = serializers.ListField(
        child=serializers.CharField(max_length=3), required=False, default=list, max_length=300
    )
    captain = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_INTEGER
    )
    deputy = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_INTEGER
    )
    roster = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INTEGER),
        max_length=40,
        help_text=gettext_lazy("Player ids, board 1 first; at least five"),
    )


class RosterSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INTEGER),
        max_length=40,
        help_text=gettext_lazy("Player ids, board 1 first"),
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


class OfficersSerializer(serializers.Serializer):
    captain = serializers.IntegerField(allow_null=True, min_value=1, max_value=MAX_INTEGER)
    deputy = serializers.IntegerField(allow_null=True, min_value=1, max_value=MAX_INTEGER)
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


class TeamEnterSerializer(serializers.Serializer):
    team = serializers.IntegerField(
        min_value=1, max_value=MAX_INTEGER, help_text=gettext_lazy("Team id")
    )


class LineupDeadlineSerializer(serializers.Serializer):
    lineup_deadline = serializers.DateTimeField()
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


def _championship(request, pk: int) -> Championship:
    return get_object_or_404(selectors.championships_visible_to(request.user), pk=pk)


def _visible_round(request, pk: int) -> Round:
    visible = selectors.events_visible_to(request.user).values("pk")
    return get_object_or_404(
        Round.objects.filter(event__in=visible).select_related("event__championship"), pk=pk
    )


def _team(request, pk: int) -> Team:
    visible = selectors.championships_visible_to(request.user).values("pk")
    return get_object_or_404(
        Team.objects.filter(championship__in=visible).select_related(
            "championship", "captain", "deputy"
        ),
        pk=pk,
    )


@extend_schema(
    tags=TEAM_TAGS,
    methods=["GET"],
    responses=TeamSerializer(many=True),
)
@extend_schema(
    tags=TEAM_TAGS,
    methods=["POST"],
    request=TeamCreateSerializer,
    responses={201: TeamSerializer},
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticatedOrReadOnly])
def teams_api(request, pk: int):
    """The championship's teams; organisers create one (name, country or region, captain,
    deputy, roster of player ids in board order)."""
    championship = _championship(request, pk)
    if request.method == "GET":
        return Response(TeamSerializer(selectors.teams_of(championship), many=True).data)
    check_permission(request.user, "manage", championship, refusal=TEAMS_REFUSAL)
    data = TeamCreateSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    team = services.team_create(
        actor=request.user,
        championship=championship,
        name=values["name"],
        country=values["country"],
        region_countries=values["region_countries"],
        captain=_player("captain", values.get("captain")),
        deputy=_player("deputy", values.get("deputy")),
        roster=_players("roster", values["roster"]),
    )
    return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=TEAM_TAGS, responses=TeamSerializer)
@api_view(["GET"])
def team_api(request, pk: int):
    """A team: its roster in board order, captain, deputy, and the log of roster changes."""
    return Response(TeamSerializer(_team(request, pk)).data)


@extend_schema(tags=TEAM_TAGS, request=RosterSerializer, responses=TeamSerializer)
@api_view(["PUT"])
@permission_classes([IsAuthenticated])
@permission_required("lead_team", lookup=_team)
def team_roster_api(request, team: Team):
    """Set the roster in board order (a substitution, a new board order, or both): the
    captain or deputy until the lineup deadline, organisers always."""
    data = RosterSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    team = services.team_roster_set(
        actor=request.user,
        team=team,
        roster=_players("players", data.validated_data["players"]),
        reason=data.validated_data["reason"],
    )
    return Response(TeamSerializer(team).data)


@extend_schema(tags=TEAM_TAGS, request=OfficersSerializer, responses=TeamSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=_team, refusal=CAPTAIN_REFUSAL)
def team_officers_api(request, team: Team):
    """Name the team's captain and deputy (organisers)."""
    data = OfficersSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    team = services.team_officers_set(
        actor=request.user,
        team=team,
        captain=_player("captain", data.validated_data["captain"]),
        deputy=_player("deputy", data.validated_data["deputy"]),
        reason=data.validated_data["reason"],
    )
    return Response(TeamSerializer(team).data)


@extend_schema(tags=TEAM_TAGS, request=TeamEnterSerializer, responses={201: EntrySerializer})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def team_enter_api(request, pk: int):
    """Enter a team in a team event (its captain or deputy, or an organiser)."""
    event = _event(request, pk)
    data = TeamEnterSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    team = Team.objects.filter(
        pk=data.validated_data["team"], championship_id=event.championship_id
    ).first()
    if team is None:  # the same answer for a team of another (perhaps unseen) championship
        raise serializers.ValidationError(
            {"team": [_("There is no such team in this championship.")]}
        )
    entry = services.team_enter(actor=request.user, event=event, team=team)
    return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=TEAM_TAGS, responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def match_boards_api(request, pk: int):
    """A team match's boards side by side: players, each board's games and TPs, the running
    total, and whether the lineup is fixed."""
    visible = selectors.events_visible_to(request.user).values("pk")
    match = get_object_or_404(
        Match.objects.filter(event__in=visible).select_related(
            "event", *sides_of("entry_a"), *sides_of("entry_b")
        ),
        pk=pk,
    )
    if match.entry_a is None or match.entry_b is None or match.entry_a.team_id is None:
        raise serializers.ValidationError(
            {"match": [_("This is not a team match with both teams known.")]}
        )
    boards = selectors.team_match_boards(match)
    return Response(
        {
            "match": match.pk,
            "team_a": match.entry_a.name,
            "team_b": match.entry_b.name,
            "tps_a": str(match.tps_a),
            "tps_b": str(match.tps_b),
            "status": match.status,
            "state_reason": match.state_reason,
            "lineup_fixed": boards["fixed"],
            "games_left": boards["games_left"],
            "tps_at_stake": str(boards["at_stake"]),
            "boards": [
                {
                    "board": row["board"],
                    "player_a": row["player_a_id"],
                    "player_a_name": row["player_a"],
                    "player_b": row["player_b_id"],
                    "player_b_name": row["player_b"],
                    "games": [
                        {"game": g.game_id, "tps_a": str(g.tps_a), "tps_b": str(g.tps_b)}
                        for g in row["games"]
                    ],
                    "tps_a": str(row["tps_a"]),
                    "tps_b": str(row["tps_b"]),
                    "running_a": str(row["running_a"]),
                    "running_b": str(row["running_b"]),
                    "winner": row["winner"],
                }
                for row in boards["rows"]
            ],
        }
    )


@extend_schema(tags=TEAM_TAGS, request=LineupDeadlineSerializer, responses=RoundSerializer)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@permission_required("manage", lookup=_visible_round, refusal=DEADLINES_REFUSAL)
def round_lineup_deadline_api(request, round_: Round):
    """Move a team round's lineup deadline (organisers)."""
    data = LineupDeadlineSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    round_ = services.round_lineup_deadline_set(
        actor=request.user, round_=round_, **data.validated_data
    )
    return Response(RoundSerializer(round_).data)


urlpatterns = [
    path("championships/<int:pk>/teams/", teams_api, name="api-teams"),
    path("teams/<int:pk>/", team_api, name="api-team"),
    path("teams/<int:pk>/roster/", team_roster_api, name="api-team-roster"),
    path("teams/<int:pk>/officers/", team_officers_api, name="api-team-officers"),
    path("events/<int:pk>/enter-team/", team_enter_api, name="api-team-enter"),
    path("matches/<int:pk>/boards/", match_boards_api, name="api-match-boards"),
    path(
        "rounds/<int:pk>/lineup-deadline/",
        round_lineup_deadline_api,
        name="api-round-lineup-deadline",
    ),
    path("events/<int:pk>/register-pair/", pair_register_api, name="api-pair-register"),
    path("entries/<int:pk>/confirm-pair/", pair_confirm_api, name="api-pair-confirm"),
    path("entries/<int:pk>/decline-pair/", pair_decline_api, name="api-pair-decline"),
]
