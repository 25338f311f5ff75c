"""What the API says of a player's home: the selectors' rows, names and words, with links and
every time in the player's own zone."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers


class PlayerTimeField(serializers.DateTimeField):
    """A time in the player's own zone (their profile's, given in the context as `zone`), as
    the page shows it; the site's zone when they chose none. The middleware cannot do it here:
    a token's user is known only inside the view."""

    def to_representation(self, value):
        zone = self.context.get("zone")
        if zone is not None:
            self.timezone = zone
        return super().to_representation(value)


class MePlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    country = serializers.CharField(source="country.code")
    time_zone = serializers.CharField()
    url = serializers.SerializerMethodField()

    def get_url(self, player) -> str:
        return reverse("player-detail", args=[player.pk])


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    player = MePlayerSerializer(allow_null=True)
    time_zone = serializers.CharField()
    links = serializers.DictField(child=serializers.CharField())


class HomeNextMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    event = serializers.IntegerField(source="event_id")
    event_name = serializers.CharField()
    championship_name = serializers.CharField()
    round = serializers.CharField(source="round_name")
    opponent = serializers.CharField()
    status = serializers.CharField(source="status_label")
    status_code = serializers.CharField(source="status")
    games_played = serializers.IntegerField()
    deadline = PlayerTimeField(allow_null=True)
    overdue = serializers.BooleanField()
    agreed_time = PlayerTimeField(source="agreed_at", allow_null=True)
    page = serializers.SerializerMethodField()

    def get_page(self, row) -> str:
        return reverse("match-page", args=[row.match_id])


class HomeWaitingReportSerializer(serializers.Serializer):
    version = serializers.IntegerField(source="version_id")
    reported_game = serializers.IntegerField(source="reported_game_id")
    players = serializers.CharField()
    scores = serializers.ListField(child=serializers.IntegerField())
    reported_by = serializers.CharField()
    reported_at = PlayerTimeField()
    answer_by = PlayerTimeField()
    match = serializers.IntegerField(source="match_id", allow_null=True)
    match_name = serializers.CharField(source="match_label")
    page = serializers.SerializerMethodField()
    confirm = serializers.SerializerMethodField()
    dispute = serializers.SerializerMethodField()

    def get_page(self, row) -> str:
        return reverse("reported-game-detail", args=[row.reported_game_id])

    def get_confirm(self, row) -> str:
        return reverse("api-report-confirm", args=[row.version_id])

    def get_dispute(self, row) -> str:
        return reverse("api-report-dispute", args=[row.version_id])


class HomeOpenDisputeSerializer(serializers.Serializer):
    reported_game = serializers.IntegerField(source="reported_game_id")
    players = serializers.CharField()
    since = PlayerTimeField()
    match = serializers.IntegerField(source="match_id", allow_null=True)
    match_name = serializers.CharField(source="match_label")
    page = serializers.SerializerMethodField()

    def get_page(self, row) -> str:
        return reverse("reported-game-detail", args=[row.reported_game_id])


class HomeRecentResultSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    event_name = serializers.CharField()
    championship_name = serializers.CharField()
    round = serializers.CharField(source="round_name")
    opponent = serializers.CharField()
    outcome = serializers.CharField()
    status = serializers.CharField(source="status_label")
    tps = serializers.CharField(source="tps_mine")
    opponent_tps = serializers.CharField(source="tps_theirs")
    decided_at = PlayerTimeField(allow_null=True)
    page = serializers.SerializerMethodField()

    def get_page(self, row) -> str:
        return reverse("match-page", args=[row.match_id])


class HomeRatingTrendSerializer(serializers.Serializer):
    system = serializers.CharField(source="label")
    system_code = serializers.CharField(source="system")
    value = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    change = serializers.FloatField(allow_null=True)
    points = serializers.ListField(child=serializers.FloatField())


class HomeOpenEventSerializer(serializers.Serializer):
    event = serializers.IntegerField(source="event_id")
    name = serializers.CharField()
    championship_name = serializers.CharField()
    format = serializers.CharField(source="format_label")
    entry_kind = serializers.CharField(source="entry_kind_label")
    entry_kind_code = serializers.CharField(source="entry_kind")
    page = serializers.SerializerMethodField()

    def get_page(self, row) -> str:
        return reverse("event-page", args=[row.event_id])
