from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.history.dating import played_at
from ratings.models import (
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
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

    played_at = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The date a chart shows this change at: its game's played time (a tournament Elo "
            "change: the player's latest game of the event; an anchoring: that event's); an "
            "adjustment's own time."
        )
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

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_played_at(self, change: RatingChange) -> str | None:
        return serializers.DateTimeField().to_representation(played_at(change))

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
