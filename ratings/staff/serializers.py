"""The staff's API serializers: reviews and their actions, adjustments, the audit trail,
recomputes and an event's Elo now."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.models import AuditEntry, Player
from ratings.models import RatingSystem, RecomputeRun, Review, ReviewKind, ReviewStatus
from ratings.queue.selectors import describe_reviews
from ratings.serializers import RatingChangeSerializer
from ratings.services import recompute_progress, review_series
from ratings.staff.review_serializers import ReviewAboutSerializer


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


class ReviewSerializer(ReviewAboutSerializer, serializers.ModelSerializer):
    """A review item and what it is about (``ReviewAboutSerializer``)."""

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

    def to_representation(self, instance: Review) -> dict:
        if not hasattr(instance, "actions"):  # not described with its page
            describe_reviews([instance])
        return super().to_representation(instance)

    @extend_schema_field(SeriesGameSerializer(many=True))
    def get_series(self, review: Review) -> list[dict]:
        if review.kind != ReviewKind.REPEATED_RESULTS:
            return []
        return SeriesGameSerializer(review_series(review), many=True).data

    class Meta:
        model = Review
        fields = [
            "id",
            "kind",
            "kind_label",
            "item_name",
            "status",
            "status_label",
            "change",
            "game",
            "player",
            "player_name",
            "table",
            "table_label",
            "history_table",
            "event_id",
            "event_name",
            "played_at",
            "games_behind",
            "standing",
            "actions",
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
    table = serializers.ChoiceField(choices=RatingSystem.choices, required=False, allow_blank=True)


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
