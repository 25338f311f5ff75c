"""API authentication: DRF's token scheme, reading the token, its user and the user's player in
one query (every submission asks who the submitter plays as)."""

from __future__ import annotations

from rest_framework import authentication


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str):
        model = self.get_model()
        try:
            token = model.objects.select_related("user__player").get(key=key)
        except model.DoesNotExist:
            token = None
        if token is None or not token.user.is_active:
            # Refused in DRF's own words (and languages): it looks the key up once more.
            return super().authenticate_credentials(key)
        return token.user, token
