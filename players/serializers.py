from __future__ import annotations

from django_countries.serializer_fields import CountryField
from rest_framework import serializers

from players.models import Colour, Player
from players.roles import is_admin, player_of


class PlayerSerializer(serializers.ModelSerializer):
    country = CountryField(country_dict=False)
    country_name = serializers.CharField(source="country.name", read_only=True)
    has_account = serializers.SerializerMethodField()
    date_of_birth = serializers.DateField(required=False, allow_null=True)
    first_colour = serializers.ChoiceField(choices=Colour.choices, required=False, allow_blank=True)
    second_colour = serializers.ChoiceField(
        choices=Colour.choices, required=False, allow_blank=True
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
        own = player_of(user)
        if not (is_admin(user) or (own is not None and own.pk == player.pk)):
            # Date of birth is private: never shown to other players or the public.
            data.pop("date_of_birth", None)
        return data
