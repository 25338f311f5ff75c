"""Reads of API tokens: the token a key names, and a user's tokens that still work."""

from __future__ import annotations

import hashlib

from django.utils import timezone
from django.utils.crypto import constant_time_compare

from players.models import ApiToken
from players.types import User


def key_digest(key: str) -> str:
    """What is stored for a key. The key is 160 random bits, so a plain SHA-256 is enough: no
    salt or slow hash is needed against guessing, unlike for a password."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def password_stamp(user: User) -> str:
    """A digest of the user's password hash: it changes with the password (and when Django
    rehashes it with a stronger hasher, as its sessions also notice), ending older tokens."""
    return hashlib.sha256(f"tantrix-api-token:{user.password}".encode()).hexdigest()


def is_live(token: ApiToken, *, now=None) -> bool:
    """Not expired, and issued under the user's current password."""
    now = now or timezone.now()
    return token.expires > now and constant_time_compare(
        token.password_stamp, password_stamp(token.user)
    )


def api_token_for_key(key: str) -> ApiToken | None:
    """The working token a key names, with its user and the user's player (one query)."""
    token = ApiToken.objects.select_related("user__player").filter(digest=key_digest(key)).first()
    return token if token is not None and is_live(token) else None


def api_tokens_of(user: User) -> list[ApiToken]:
    """The user's tokens that still work, newest first."""
    now = timezone.now()
    tokens = ApiToken.objects.filter(user=user, expires__gt=now).order_by("-created", "-id")
    stamp = password_stamp(user)
    return [t for t in tokens if constant_time_compare(t.password_stamp, stamp)]
