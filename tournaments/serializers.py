from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from players.models import AuditEntry
from tantrix_site.http.filters import MAX_INTEGER
from tournaments.models import (
    Championship,
    Entry,
    Event,
    Match,
    MatchGame,
    Round,
)
from tournaments.pages import words
from tournaments.services import EVENT_FIELDS

# A reason is a sentence or a paragraph, not a document.
REASON_MAX_LENGTH = 2000


class ChampionshipSerializer(serializers.ModelSerializer):
    organisers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)
    controllers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = Championship
        fields = [
            "id",
            "name",
            "year",
            "category",
            "published",
            "organisers",
            "controllers",
            "created",
        ]
        read_only_fields = ["id", "organisers", "controllers", "created"]
        validators: list = []


class StaffSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=["organiser", "controller"])
    present = serializers.BooleanField(default=True)


class EventSerializer(serializers.ModelSerializer):
    champion_name = serializers.CharField(
        source="champion.name", default=None, read_only=True, allow_null=True
    )

    class Meta:
        model = Event
        fields = [
            "id",
            "championship",
            *EVENT_FIELDS,
            "status",
            "champion",
            "champion_name",
            "created",
        ]
        read_only_fields = ["id", "status", "champion", "champion_name", "created"]


class EntrySerializer(serializers.ModelSerializer):
    kind = serializers.CharField(
        read_only=True,
        # Translators: single, pair and team are the codes the API answers: keep them as they are.
        help_text=_("single, pair or team"),
    )
    name = serializers.CharField(read_only=True, help_text=_("The player's, pair's or team's name"))
    player_name = serializers.CharField(
        source="name", read_only=True, help_text=_("The same as `name` (kept for old clients)")
    )
    country = serializers.CharField(source="country_code", read_only=True, allow_null=True)
    players = serializers.SerializerMethodField()

    def get_players(self, entry: Entry) -> list[int]:
        """The ids of the players who play for the entry (a team's whole roster)."""
        return entry.members()

    class Meta:
        model = Entry
        fields = [
            "id",
            "event",
            "kind",
            "name",
            "player",
            "pair",
            "team",
            "players",
            "player_name",
            "country",
            "seed",
            "seeding_points",
            "seeding_basis",
            "source",
            "qualifier_rank",
            "status",
            "group",
            "created",
        ]
        read_only_fields = fields


class AgeConfirmationSerializer(serializers.Serializer):
    age_limit = serializers.IntegerField()
    cutoff_date = serializers.DateField()


class RegisterSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_INTEGER,
        help_text=_("Player id; defaults to your own player"),
    )


class SeedSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_INTEGER),
        required=False,
        max_length=4096,
        help_text=_("Entry ids, best first; omit to seed from ratings"),
    )


class DrawSerializer(serializers.Serializer):
    draw_seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    start = serializers.DateTimeField(required=False)
    preview = serializers.CharField(
        required=False,
        max_length=40,
        help_text=_(
            "The token of a preview: the draw is made only if it is the one previewed (give its "
            "seed too); otherwise nothing is stored and the answer shows a fresh preview."
        ),
    )

    def validate(self, attrs):
        if "preview" in attrs and "draw_seed" not in attrs:
            raise serializers.ValidationError(
                {"draw_seed": _("Give the seed of the draw you previewed.")}
            )
        return attrs


class DrawPreviewRequestSerializer(serializers.Serializer):
    draw_seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**62, help_text=_("Blank: a new random seed.")
    )


class PreviewMatchSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    side_a = serializers.CharField(allow_null=True)
    seed_a = serializers.IntegerField(allow_null=True)
    side_b = serializers.CharField(allow_null=True)
    seed_b = serializers.IntegerField(allow_null=True)
    is_bye = serializers.BooleanField()


class PreviewGroupSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    members = serializers.ListField(child=serializers.CharField())


class DrawPreviewSerializer(serializers.Serializer):
    """A draw not stored: its seed, the token that makes exactly it, its first round."""

    draw_seed = serializers.IntegerField()
    token = serializers.CharField()
    entries = serializers.IntegerField()
    rounds = serializers.IntegerField()
    first_round = serializers.CharField()
    seed_matters = serializers.BooleanField()
    matches = PreviewMatchSerializer(many=True)
    groups = PreviewGroupSerializer(many=True)


class RegistrationSerializer(serializers.Serializer):
    open = serializers.BooleanField()


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


class MatchGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchGame
        fields = [
            "id",
            "number",
            "game",
            "seat_a",
            "base_tps_a",
            "base_tps_b",
            "penalty_a",
            "penalty_b",
            "tps_a",
            "tps_b",
        ]


class MatchSerializer(serializers.ModelSerializer):
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    round_name = serializers.CharField(source="round.__str__", read_only=True)
    deadline = serializers.DateTimeField(source="round.deadline", read_only=True)
    # The sides' names: a player's, a pair's or a team's (the fields keep their old names).
    player_a = serializers.CharField(
        source="entry_a.name", default=None, read_only=True, allow_null=True
    )
    player_b = serializers.CharField(
        source="entry_b.name", default=None, read_only=True, allow_null=True
    )
    games = MatchGameSerializer(source="match_games", many=True, read_only=True)
    title = serializers.SerializerMethodField(
        help_text=_(
            "The match as the pages name it, in the reader's language: its round and its sides "
            '("Semi-final: Ana v Bela", "Round of 128: Jana has a bye").'
        )
    )
    status_label = serializers.SerializerMethodField(
        help_text=_("The status in words, in the reader's language.")
    )
    page_url = serializers.SerializerMethodField(help_text=_("The match's web page."))
    live_url = serializers.SerializerMethodField(
        help_text=_(
            "The match's live fragment (HTML), which a page polls while the match runs: it "
            "answers 304 Not Modified while nothing has changed."
        )
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "title",
            "status_label",
            "page_url",
            "live_url",
            "event",
            "round",
            "round_number",
            "round_name",
            "deadline",
            "bracket_index",
            "group",
            "entry_a",
            "entry_b",
            "player_a",
            "player_b",
            "is_bye",
            "status",
            "tps_a",
            "tps_b",
            "games_played",
            "state_reason",
            "winner",
            "next_match",
            "next_side",
            "walkover_claimed_by",
            "decided_at",
            "games",
        ]
        read_only_fields = fields

    def _rounds_total(self, match: Match) -> int:
        # Knockout round names ("Semi-final") need the event's number of rounds: one query per
        # event for a whole page of matches (the context is shared by a list's items).
        known = self.context.setdefault("rounds_total", {})
        if match.event_id not in known:
            known[match.event_id] = Round.objects.filter(event_id=match.event_id).count()
        return known[match.event_id]

    def get_title(self, match: Match) -> str:
        return words.match_title(match, self._rounds_total(match))

    def get_status_label(self, match: Match) -> str:
        return str(match.get_status_display())

    def get_page_url(self, match: Match) -> str:
        return reverse("match-page", args=[match.pk])

    def get_live_url(self, match: Match) -> str:
        return reverse("match-live", args=[match.pk])


class RuleSerializer(serializers.Serializer):
    winner = serializers.IntegerField(
        allow_null=True,
        min_value=1,
        max_value=MAX_INTEGER,
        help_text=_("Winning entry id; null: void"),
    )
    reason = serializers.CharField(max_length=REASON_MAX_LENGTH)


class PenaltySerializer(serializers.Serializer):
    game = serializers.IntegerField(
        min_value=1, max_value=1000, help_text=_("Match game number (1, 2, ...)")
    )
    side = serializers.ChoiceField(choices=[0, 1], help_text=_("The side that ran over time"))


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = [
            "id",
            "event",
            "number",
            "name",
            "deadline",
            "deadline_processed",
            "lineup_deadline",
        ]
        read_only_fields = [
            "id",
            "event",
            "number",
            "name",
            "deadline_processed",
            "lineup_deadline",
        ]


class DeadlineSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField()
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=REASON_MAX_LENGTH
    )


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(
        source="actor.username", default=None, read_only=True, allow_null=True
    )
    event = serializers.IntegerField(source="event_id", read_only=True, allow_null=True)
    action_label = serializers.CharField(source="get_action_display", read_only=True)

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "actor",
            "event",
            "action",
            "action_label",
            "target",
            "details",
            "reason",
            "created",
        ]


class TableRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField()
    seed = serializers.IntegerField()
    games = serializers.IntegerField()
    tps = serializers.DecimalField(max_digits=8, decimal_places=1)
    tps_available = serializers.DecimalField(max_digits=8, decimal_places=1)
    tp_percent = serializers.DecimalField(max_digits=6, decimal_places=2)


class GroupTableSerializer(serializers.Serializer):
    group = serializers.IntegerField()
    rows = TableRowSerializer(many=True)
