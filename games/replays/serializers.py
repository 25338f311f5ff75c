"""What the API shows of games: result, seats, and the placements for a replay."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Game, GameSeat


class SeatSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = GameSeat
        fields = ["seat", "player", "player_name", "colour", "score", "tournament_points"]


class GameSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "record",
            "players_count",
            "is_pairs",
            "winner_seat",
            "is_draw",
            "end_reason",
            "placements_count",
            "turns",
            "endgame_from",
            "context",
            "event_id",
            "played_at",
            "seats",
        ]


class GameDetailSerializer(GameSerializer):
    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "clock", "placements"]
