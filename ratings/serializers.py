from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.models import AuditEntry, Player
from ratings.models import (
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
    RecomputeRun,
    Review,
    ReviewKind,
    ReviewStatus,
    Title,
)
from ratings.selectors import is_provisional_elo


class RankingQuerySerializer(serializers.Serializer):
    system = serializers.ChoiceField(choices=RatingSystem.choices, default=RatingSystem.LOBBY)
    country = serializers.RegexField(
        r"^[A-Za-z]{2}$",
        required=False,
        allow_blank=True,
        error_messages={
            "invalid": gettext_lazy("A two-letter country code (ISO 3166-1), e.g. DE.")
        },
    )
    search = serializers.CharField(required=False, allow_blank=True, max_length=40)


class HistoryQuerySerializer(serializers.Serializer):
    system = serializers.ChoiceField(choices=RatingSystem.choices, default=RatingSystem.LOBBY)


class RankingRowSerializer(serializers.ModelSerializer):
    rank = serializers.IntegerField(read_only=True)
    player = serializers.IntegerField(source="player_id", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    country = serializers.CharField(source="player.country.code", read_only=True)
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "rank",
            "player",
            "display_name",
            "country",
            "system",
            "value",
            "games",
            "provisional",
            "period",
            "last_played_at",
        ]

    def get_provisional(self, rating: Rating) -> bool:
        return is_provisional_elo(rating)


class RatingSerializer(serializers.ModelSerializer):
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "system",
            "value",
            "games",
            "provisional",
            "period",
            "last_game",
            "last_played_at",
        ]

    def get_provisional(self, rating: Rating) -> bool:
        return is_provisional_elo(rating)


class RatingChangeSerializer(serializers.ModelSerializer):
    """One point of a rating history: ``after`` is the rating once this change applied."""

    played_at = serializers.DateTimeField(
        source="game.played_at", read_only=True, default=None, allow_null=True
    )
    at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy(
            "The step's place in game order (a game's played time, an adjustment's "
            "time); null for the Elo."
        ),
    )
    replaces = serializers.IntegerField(
        source="replaces_id",
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy(
            "The earlier version of this step, recalculated after a late game, a revert "
            "or a recompute."
        ),
    )
    reverted_by = serializers.SerializerMethodField()
    event_name = serializers.CharField(
        read_only=True,
        default=None,
        allow_null=True,
        help_text=gettext_lazy(
            "The tournament event's name (championship · event), when `event_id` is set."
        ),
    )

    class Meta:
        model = RatingChange
        fields = [
            "id",
            "system",
            "reason",
            "game",
            "event_id",
            "event_name",
            "period",
            "before",
            "after",
            "delta",
            "games_delta",
            "reverts",
            "reverted_by",
            "replaces",
            "at",
            "note",
            "created",
            "played_at",
        ]

    def get_reverted_by(self, change: RatingChange) -> int | None:
        try:
            return change.reverted_by.pk
        except RatingChange.DoesNotExist:
            return None


class TitleSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    country = serializers.CharField(source="player.country.code", read_only=True)

    class Meta:
        model = Title
        fields = [
            "id",
            "player",
            "display_name",
            "country",
            "kind",
            "status",
            "awarded_at",
            "ended_at",
        ]


class StaffTitleSerializer(TitleSerializer):
    class Meta(TitleSerializer.Meta):
        fields = [
            *TitleSerializer.Meta.fields,
            "awarded_by",
            "note",
            "ended_by",
            "end_note",
        ]


class TitleAwardSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    note = serializers.CharField(max_length=2000)


class TitleWithdrawSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=2000)
    lapsed = serializers.BooleanField(
        default=False, help_text=gettext_lazy("End the title as lapsed rather than withdrawn.")
    )


class EloResultSerializer(serializers.ModelSerializer):
    """How an Elo-rated tournament moved a player, as the rating page explains it."""

    event_name = serializers.CharField(read_only=True, default=None, allow_null=True)

    class Meta:
        model = EloStanding
        fields = [
            "event_id",
            "event_name",
            "games",
            "share",
            "expected_share",
            "performance",
            "opposition_average",
            "rating_before",
            "rating_after",
            "games_before",
            "games_after",
        ]
        extra_kwargs = {
            "share": {"help_text": "TPs won ÷ TPs available in the event."},
            "expected_share": {
                "help_text": "Φ((own − opposition) / 565.7), from the rating brought."
            },
            "performance": {
                "help_text": gettext_lazy("Opposition average + 565.7 · Φ⁻¹(share), capped ±800.")
            },
            "opposition_average": {
                "help_text": gettext_lazy("The opponents' average rating brought.")
            },
        }


class PlayerRatingsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    display_name = serializers.CharField()
    ratings = RatingSerializer(many=True)
    titles = TitleSerializer(many=True)
    elo_tournaments = serializers.IntegerField()
    elo_results = EloResultSerializer(
        many=True, help_text=gettext_lazy("Latest Elo-rated tournaments first.")
    )


class RecomputeRequestSerializer(serializers.Serializer):
    systems = serializers.ListField(
        child=serializers.ChoiceField(choices=RatingSystem.choices),
        required=False,
        allow_empty=True,
        max_length=len(RatingSystem.values),
        help_text=gettext_lazy("Tables to recompute (default: all)."),
    )


class RecomputeRunSerializer(serializers.ModelSerializer):
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    requested_by_name = serializers.CharField(
        source="requested_by.username", read_only=True, default=""
    )
    progress = serializers.SerializerMethodField(
        help_text=gettext_lazy("Events replayed so far, per table (while running).")
    )

    class Meta:
        model = RecomputeRun
        fields = [
            "id",
            "status",
            "status_label",
            "systems",
            "requested_by_name",
            "created",
            "started_at",
            "finished_at",
            "progress",
            "summary",
            "error",
        ]

    def get_progress(self, run: RecomputeRun) -> dict[str, int]:
        from ratings.services import recompute_progress

        return recompute_progress(run)


class EloRecalculationSerializer(serializers.Serializer):
    event_id = serializers.IntegerField()
    games = serializers.IntegerField()
    players = serializers.IntegerField()
    changes = serializers.IntegerField()
    anchor_shift = serializers.FloatField()


class SeriesGameSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    winner = serializers.CharField(help_text=gettext_lazy("The winner's name."))
    loser = serializers.CharField(help_text=gettext_lazy("The loser's name."))
    winner_score = serializers.IntegerField()
    loser_score = serializers.IntegerField()
    counts = serializers.BooleanField(help_text=gettext_lazy("Still counts (not reverted)."))


class ReviewSerializer(serializers.ModelSerializer):
    change = RatingChangeSerializer(read_only=True)
    player_name = serializers.CharField(source="player.display_name", read_only=True, default="")
    opponent_name = serializers.SerializerMethodField(
        help_text=gettext_lazy("Repeated results: the opponent beaten, by name.")
    )
    series = serializers.SerializerMethodField(
        help_text=gettext_lazy("Repeated results: every game of the series, named by both players.")
    )

    def get_opponent_name(self, review: Review) -> str | None:
        opponent = (review.detail or {}).get("opponent")
        if opponent is None:
            return None
        return Player.objects.filter(pk=opponent).values_list("display_name", flat=True).first()

    @extend_schema_field(SeriesGameSerializer(many=True))
    def get_series(self, review: Review) -> list[dict]:
        from ratings.services import review_series

        if review.kind != ReviewKind.REPEATED_RESULTS:
            return []
        return SeriesGameSerializer(review_series(review), many=True).data

    class Meta:
        model = Review
        fields = [
            "id",
            "kind",
            "status",
            "change",
            "game",
            "player",
            "player_name",
            "opponent_name",
            "series",
            "title",
            "detail",
            "reviewer",
            "note",
            "created",
            "resolved_at",
        ]


class ReviewQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=[*ReviewStatus.choices, ("", pgettext_lazy("every review status", "any"))],
        default=ReviewStatus.OPEN,
        allow_blank=True,
    )
    kind = serializers.ChoiceField(choices=ReviewKind.choices, required=False, allow_blank=True)


class NoteSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=2000, help_text=gettext_lazy("Why: kept in the audit trail.")
    )


class AdjustmentSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    system = serializers.ChoiceField(choices=RatingSystem.choices)
    # Bounds a real correction never reaches; beyond them it is a typing mistake.
    delta = serializers.FloatField(
        required=False, allow_null=True, min_value=-1000.0, max_value=1000.0
    )
    value = serializers.FloatField(required=False, allow_null=True, min_value=0.0, max_value=5000.0)
    reason = serializers.CharField(max_length=2000)

    def validate(self, attrs: dict) -> dict:
        if (attrs.get("delta") is None) == (attrs.get("value") is None):
            raise serializers.ValidationError(
                {"delta": _("Give either a delta or a new value, not both.")}
            )
        return attrs


class AdjustmentOutSerializer(RatingChangeSerializer):
    player = serializers.IntegerField(source="player_id", read_only=True)
    actor = serializers.IntegerField(source="actor_id", read_only=True)

    class Meta(RatingChangeSerializer.Meta):
        fields = [*RatingChangeSerializer.Meta.fields, "player", "actor"]


class RatingAuditEntrySerializer(serializers.ModelSerializer):
    actor_name = serializers.CharField(source="actor.username", read_only=True, default="")
    action_label = serializers.CharField(source="get_action_display", read_only=True)
    player = serializers.IntegerField(source="subject_player_id", read_only=True, allow_null=True)
    change = serializers.IntegerField(source="rating_change_id", read_only=True, allow_null=True)
    review = serializers.IntegerField(source="review_id", read_only=True, allow_null=True)
    title = serializers.IntegerField(source="title_id", read_only=True, allow_null=True)

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "actor",
            "actor_name",
            "action",
            "action_label",
            "player",
            "change",
            "review",
            "title",
            "reason",
            "details",
            "created",
        ]
