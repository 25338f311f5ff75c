"""What the API says a review item is about, and the bodies of its actions (acknowledge with an
optional note, revert games behind an Elo swing, adjust); the page shows the same
(``ratings.queue.selectors.describe_reviews``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from ratings.queue.kinds import ACTIONS


class OpponentSerializer(serializers.Serializer):
    name = serializers.CharField()
    score = serializers.IntegerField()
    tps = serializers.DecimalField(max_digits=4, decimal_places=1, allow_null=True)


class GameBehindSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    outcome = serializers.ChoiceField(
        choices=["won", "lost", "drawn"], help_text=gettext_lazy("For the item's player.")
    )
    score = serializers.IntegerField()
    tps = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        allow_null=True,
        help_text=gettext_lazy("The player's tournament points (tournament games)."),
    )
    opponents = OpponentSerializer(many=True)
    counts = serializers.BooleanField(
        help_text=gettext_lazy("Still in the ratings (not reverted, its record still valid).")
    )
    reverted = serializers.BooleanField()


class ReviewStandingSerializer(serializers.Serializer):
    """How the event moves the player now (an Elo swing), as the rating page explains it."""

    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    games = serializers.IntegerField()
    share = serializers.FloatField()
    performance = serializers.FloatField()


class ReviewAboutSerializer(serializers.Serializer):
    """The fields of a review that say what it is about (read from ``describe_reviews``)."""

    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    item_name = serializers.CharField(read_only=True)
    table = serializers.CharField(
        read_only=True, help_text=gettext_lazy("The table the item is about; empty for a title.")
    )
    table_label = serializers.CharField(read_only=True)
    history_table = serializers.CharField(
        read_only=True,
        help_text=gettext_lazy("The table of the player's rating history the item concerns."),
    )
    event_id = serializers.IntegerField(read_only=True, allow_null=True)
    event_name = serializers.CharField(read_only=True, allow_null=True)
    played_at = serializers.DateTimeField(
        source="played",
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy("The flagged change's date: its game's played time."),
    )
    games_behind = GameBehindSerializer(many=True, read_only=True)
    standing = ReviewStandingSerializer(read_only=True, allow_null=True)
    actions = serializers.ListField(
        child=serializers.ChoiceField(choices=ACTIONS),
        read_only=True,
        help_text=gettext_lazy("What works for this item now (none once it is closed)."),
    )


class OptionalNoteSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text=gettext_lazy("Why: kept in the audit trail."),
    )


class RevertGamesSerializer(serializers.Serializer):
    games = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=500,
        help_text=gettext_lazy("Games behind the swing (ids from `games_behind`)."),
        error_messages={"min_length": gettext_lazy("Choose a game behind the swing to revert.")},
    )
    note = serializers.CharField(
        max_length=2000, help_text=gettext_lazy("Why: kept in the audit trail.")
    )


class ReviewAdjustSerializer(serializers.Serializer):
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
