"""API authentication: `Authorization: Token <key>` (DRF's scheme) against the hashed,
expiring, revocable tokens of players.tokens; the token, its user and the user's player in one
query (every submission asks who the submitter plays as)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import authentication
from rest_framework.exceptions import AuthenticationFailed

from players.tokens import selectors, services


class TokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str):
        token = selectors.api_token_for_key(key)
        # Unknown, expired, revoked or issued under an old password: one answer for all, so a
        # key says nothing about what it once was. The client asks for a new token.
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        services.api_token_touch(token=token)
        return token.user, token
