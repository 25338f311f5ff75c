"""What the API shows of reported games and their versions: names and labels, not codes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.models import GameReport, ReportedGame
from games.reports.notes import note_text
from games.reports.selectors import seat_names


class ReportVersionSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(source="get_kind_display")
    role = serializers.CharField(source="get_role_display")
    status = serializers.CharField(source="get_status_display")
    status_code = serializers.CharField(source="status")
    author = serializers.CharField(source="author.username", default=None)
    side = serializers.CharField(source="side_player.display_name", default=None)
    end = serializers.CharField(source="get_end_reason_display")
    answered_by = serializers.CharField(source="answered_by.username", default=None)
    ruled_version = serializers.IntegerField(source="based_on.number", default=None)
    answer_note = serializers.SerializerMethodField()

    class Meta:
        model = GameReport
        fields = [
            "id",
            "number",
            "kind",
            "role",
            "author",
            "side",
            "record",
            "scores",
            "winner_seat",
            "end",
            "minutes",
            "status",
            "status_code",
            "standing",
            "reason",
            "ruled_version",
            "answered_by",
            "answered_at",
            "answer_note",
            "created",
        ]

    def get_answer_note(self, version: GameReport) -> str:
        return note_text(version.answer_note)


class ReportedGameSerializer(serializers.ModelSerializer):
    state = serializers.CharField(source="get_state_display")
    state_code = serializers.CharField(source="state")
    players = serializers.SerializerMethodField()
    versions = ReportVersionSerializer(many=True)

    class Meta:
        model = ReportedGame
        fields = [
            "id",
            "state",
            "state_code",
            "players",
            "match_id",
            "played_at",
            "game",
            "versions",
        ]

    def get_players(self, reported: ReportedGame) -> list[str]:
        return seat_names(reported)


class WaitingReportSerializer(serializers.ModelSerializer):
    reported_game = serializers.IntegerField(source="reported_game_id")
    players = serializers.SerializerMethodField()
    reported_by = serializers.CharField(source="side_player.display_name", default=None)
    kind = serializers.CharField(source="get_kind_display")
    end = serializers.CharField(source="get_end_reason_display")

    class Meta:
        model = GameReport
        fields = [
            "id",
            "reported_game",
            "players",
            "reported_by",
            "kind",
            "scores",
            "end",
            "created",
        ]

    def get_players(self, report: GameReport) -> list[str]:
        return seat_names(report.reported_game)


class ToRuleSerializer(serializers.Serializer):
    reported_game = serializers.IntegerField()
    state = serializers.CharField()


class WaitingListSerializer(serializers.Serializer):
    """What waits for me: reports to answer, and (for rulers) disputes to rule."""

    waiting = WaitingReportSerializer(many=True)
    to_rule = ToRuleSerializer(many=True)


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class RulingSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        allow_null=True,
        help_text=_("The number of the version whose result stands; null: there was no game."),
    )
    reason = serializers.CharField(max_length=2000)


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class ScoreSheetSerializer(serializers.Serializer):
    """Checked by games.score_sheet (field by field); here only the shape."""

    match = serializers.IntegerField(min_value=1, max_value=2**62)
    score_a = serializers.JSONField()
    score_b = serializers.JSONField()
    minutes_a = serializers.JSONField(required=False, allow_null=True)
    minutes_b = serializers.JSONField(required=False, allow_null=True)
    ending = serializers.CharField(required=False, allow_blank=True, max_length=20)
    conceded_by = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=5
    )


#: A match has a handful of games; a score form of more is not a match's.
MAX_FORM_GAMES = 12


class ScoreFormSerializer(serializers.Serializer):
    """A match's score form: several games' sheets at once (each as ScoreSheetSerializer's
    fields, without `match`). Checked by games.score_sheet, game by game."""

    match = serializers.IntegerField(min_value=1, max_value=2**62)
    games = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=MAX_FORM_GAMES
    )


class ScoreFormAnswerSerializer(serializers.Serializer):
    reports = ReportVersionSerializer(many=True)
