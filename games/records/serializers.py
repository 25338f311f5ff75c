"""What the API shows of game records: status, verdict, the error in the reader's words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.models import GameRecord
from games.records import verdicts


class RecordSubmitResponseSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField(help_text=_("Poll this for the verdict."))
    page = serializers.CharField(help_text=_("The record's web page."))


class RecordSerializer(serializers.ModelSerializer):
    submitter = serializers.CharField(source="submitter.username", default=None, read_only=True)
    error = serializers.SerializerMethodField()
    game = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    body = serializers.CharField(source="body_text", read_only=True)

    class Meta:
        model = GameRecord
        fields = [
            "id",
            "status",
            "source",
            "submitter",
            "created",
            "adjudicated_at",
            "attempts",
            "verdict",
            "error",
            "game",
            "report",
            "seat_players",
            "extensions",
            "body",
        ]

    def get_error(self, record: GameRecord) -> dict | None:
        if not record.error_code:
            return None
        return {
            "code": record.error_code,
            "placement": record.error_placement,
            # The stored English sentence, or one built in the reader's language (verdicts).
            "message": verdicts.record_placement_sentence(
                record.body_bytes, verdicts.record_error_dict(record)
            )
            or verdicts.refusal_sentence(record.error_message)
            or record.error_message,
        }

    def get_report(self, record: GameRecord) -> dict | None:
        """The game this record reports, and whether its result stands yet (games/reports)."""
        version = getattr(record, "report", None)
        if version is None:
            return None
        return {
            "reported_game": version.reported_game_id,
            "version": version.number,
            "status": version.get_status_display(),
            "result": version.reported_game.get_state_display(),
        }

    def get_game(self, record: GameRecord) -> int | None:
        game = getattr(record, "game", None) if record.status == "valid" else None
        return game.pk if game else None


class RecordListSerializer(RecordSerializer):
    class Meta(RecordSerializer.Meta):
        fields = [
            "id",
            "status",
            "source",
            "submitter",
            "created",
            "adjudicated_at",
            "error",
            "extensions",
        ]
