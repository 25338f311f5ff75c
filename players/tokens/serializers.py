from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from players.models import ApiToken
from players.passwords import password_max_length, too_long_message


class _PasswordField(serializers.CharField):
    """A password as typed (spaces kept), at most settings.PASSWORD_MAX_LENGTH characters,
    refused with the same words as sign-up and the password change."""

    def __init__(self, **kwargs):
        limit = password_max_length()
        super().__init__(
            trim_whitespace=False,
            write_only=True,
            style={"input_type": "password"},
            max_length=limit,
            # Lazy: the field is made once, at import, and speaks each reader's language.
            error_messages={"max_length": lazy(too_long_message, str)(limit)},
            **kwargs,
        )


class TokenRequestSerializer(serializers.Serializer):
    """A user name and password, checked against the accounts (behind the login limits)."""

    username = serializers.CharField(max_length=150, write_only=True)
    password = _PasswordField()

    def validate(self, attrs: dict) -> dict:
        user = authenticate(
            request=self.context.get("request"),
            username=attrs["username"],
            password=attrs["password"],
        )
        if user is None:
            raise serializers.ValidationError(
                _("Unable to log in with provided credentials."), code="authorization"
            )
        attrs["user"] = user
        return attrs


class IssuedTokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        read_only=True, help_text=_("Send it as `Authorization: Token <token>`. Shown once.")
    )
    expires = serializers.DateTimeField(read_only=True)


class ApiTokenSerializer(serializers.ModelSerializer):
    current = serializers.SerializerMethodField(
        help_text=_("The token this request was sent with.")
    )

    class Meta:
        model = ApiToken
        fields = ["id", "prefix", "client", "created", "last_used", "expires", "current"]
        read_only_fields = fields

    def get_current(self, token: ApiToken) -> bool:
        used = self.context["request"].auth
        return isinstance(used, ApiToken) and used.pk == token.pk


class RevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(read_only=True)
