from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django_countries.serializer_fields import CountryField
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.models import LANGUAGE_CHOICES, AuditEntry, ClaimRequest, Colour, Player
from players.preferences.timezones import validate_time_zone
from players.services import SiteRole, can_see_private


class PlayerSerializer(serializers.ModelSerializer):
    country = CountryField(country_dict=False)
    country_name = serializers.CharField(source="country.name", read_only=True)
    has_account = serializers.SerializerMethodField()
    date_of_birth = serializers.DateField(required=False, allow_null=True)
    first_colour = serializers.ChoiceField(choices=Colour.choices, required=False, allow_blank=True)
    second_colour = serializers.ChoiceField(
        choices=Colour.choices, required=False, allow_blank=True
    )
    time_zone = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        validators=[validate_time_zone],
        help_text=_("IANA name such as Europe/Paris; empty for the site's time zone. Private."),
    )
    language = serializers.ChoiceField(
        choices=LANGUAGE_CHOICES,
        required=False,
        allow_blank=True,
        help_text=_("The language the player reads the site in; empty for the browser's. Private."),
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "display_name",
            "country",
            "country_name",
            "date_of_birth",
            "first_colour",
            "second_colour",
            "time_zone",
            "language",
            "has_account",
            "created",
            "updated",
        ]
        read_only_fields = ["id", "created", "updated"]
        # Uniqueness (case-insensitive) is checked by the service with a clear message.
        validators: list = []

    def get_has_account(self, player: Player) -> bool:
        return player.user_id is not None

    def to_representation(self, player: Player) -> dict:
        data = super().to_representation(player)
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if not can_see_private(user, player):
            # Date of birth is private: never shown to other players or the public.
            data.pop("date_of_birth", None)
            data.pop("time_zone", None)
            data.pop("language", None)
        return data


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


# --- Roles ---------------------------------------------------------------------------------


class RoleHolderSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)
    player = serializers.SerializerMethodField()
    is_organiser = serializers.BooleanField(
        source="is_organiser_member",
        read_only=True,
        help_text=_("In the organisers group (staff may create championships anyway)."),
    )
    is_staff = serializers.BooleanField(read_only=True)
    is_superuser = serializers.BooleanField(read_only=True)

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_player(self, user) -> dict | None:
        player = getattr(user, "player", None)
        return {"id": player.pk, "display_name": player.display_name} if player else None


class RoleChangeSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=150, help_text=_("A username, or the display name of a player with an account.")
    )
    # Not "role": that word names the per-championship roles elsewhere in the API.
    site_role = serializers.ChoiceField(choices=SiteRole.choices)
    reason = serializers.CharField(max_length=2000, help_text=_("Kept in the audit trail."))


def _object_id(source: str) -> serializers.IntegerField:
    """An object of a higher app, by its plain id (null when the entry names none)."""
    return serializers.IntegerField(source=source, read_only=True, allow_null=True)


class AuditTrailEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor_name", read_only=True)
    action_label = serializers.CharField(source="get_action_display", read_only=True)
    subject_user = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    championship = _object_id("championship_id")
    event = _object_id("event_id")
    rating_change = _object_id("rating_change_id")
    review = _object_id("review_id")
    title = _object_id("title_id")
    objects = serializers.SerializerMethodField(
        help_text=_("The championship, event, rating change, review or title, by name.")
    )

    def get_objects(self, entry: AuditEntry) -> list[dict[str, str]]:
        named = getattr(entry, "named_objects", [])
        return [{"kind": str(o["kind"]), "name": str(o["name"])} for o in named]

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "created",
            "actor",
            "action",
            "action_label",
            "target",
            "subject_user",
            "subject_player",
            "championship",
            "event",
            "rating_change",
            "review",
            "title",
            "objects",
            "reason",
            "details",
        ]
        read_only_fields = fields


# --- Claims --------------------------------------------------------------------------------


class ClaimLinkStateSerializer(serializers.Serializer):
    player = PlayerRefSerializer(read_only=True)
    expires = serializers.DateTimeField(read_only=True)


class ClaimLinkSerializer(ClaimLinkStateSerializer):
    url = serializers.URLField(read_only=True, help_text=_("Shown once: the token is not stored."))


class ClaimLinkTokenSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=100, help_text=_("The last part of the claim link."))


class ClaimLinkRedeemSerializer(ClaimLinkTokenSerializer):
    """Logged in (without a player): send only the token. Not logged in: also a new account."""

    username = serializers.CharField(max_length=150, required=False)
    email = serializers.EmailField(required=False, allow_blank=True)
    password = serializers.CharField(
        required=False, write_only=True, style={"input_type": "password"}
    )


class ClaimRequestSerializer(serializers.ModelSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_name = serializers.CharField(source="player.display_name", read_only=True)
    requester = serializers.SlugRelatedField(slug_field="username", read_only=True)
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    decided_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = ClaimRequest
        fields = [
            "id",
            "player",
            "player_name",
            "requester",
            "message",
            "status",
            "status_label",
            "created",
            "decided_by",
            "decided_at",
            "decision_reason",
        ]
        read_only_fields = [
            "id",
            "requester",
            "status",
            "created",
            "decided_by",
            "decided_at",
            "decision_reason",
        ]
        # The one-pending-request rule is checked by the service with a clear message.
        validators: list = []


class ClaimDecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        help_text=_("Needed to refuse; the requester reads it."),
    )
