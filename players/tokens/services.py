"""Writes of API tokens: issue, rotate, revoke one or all, and the password change that ends
them all."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from players.models import ApiToken
from players.tokens.selectors import key_digest, password_stamp
from players.types import User

# last_used is written at most this often per token: a client polling every second must not
# turn each request into a write.
LAST_USED_PRECISION = dt.timedelta(minutes=5)
CLIENT_MAX_LENGTH = ApiToken._meta.get_field("client").max_length


class ApiTokenGone(Exception):
    """The token was revoked (or rotated) while the request that uses it was under way."""


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    key: str  # given to the client once: only its digest is stored


def _lifetime() -> dt.timedelta:
    return dt.timedelta(days=settings.API_TOKEN_TTL_DAYS)


def _prune(*, user: User, now: dt.datetime) -> None:
    """Drop the user's tokens that no longer work, and the oldest ones beyond the limit, so
    that a new one fits within settings.API_TOKENS_PER_USER."""
    ApiToken.objects.filter(user=user).filter(
        Q(expires__lte=now) | ~Q(password_stamp=password_stamp(user))
    ).delete()
    keep = settings.API_TOKENS_PER_USER - 1
    surplus = list(
        ApiToken.objects.filter(user=user)
        .order_by("-created", "-id")
        .values_list("pk", flat=True)[keep:]
    )
    if surplus:
        ApiToken.objects.filter(pk__in=surplus).delete()


@transaction.atomic
def api_token_issue(*, user: User, client: str = "") -> IssuedToken:
    """A new token for one client of `user` (who has just given their password)."""
    now = timezone.now()
    _prune(user=user, now=now)
    key = secrets.token_hex(20)  # 40 characters, as DRF's tokens were: clients keep working
    token = ApiToken.objects.create(
        user=user,
        digest=key_digest(key),
        prefix=key[:8],
        client=client[:CLIENT_MAX_LENGTH],
        created=now,
        expires=now + _lifetime(),
        password_stamp=password_stamp(user),
    )
    return IssuedToken(token=token, key=key)


def _claim(token: ApiToken) -> bool:
    """Delete the token; whether this call deleted it. The DELETE is the claim: of two
    concurrent rotations the second waits for the first's row lock, then deletes nothing."""
    return ApiToken.objects.filter(pk=token.pk).delete()[0] > 0


@transaction.atomic
def api_token_rotate(*, token: ApiToken, client: str = "") -> IssuedToken:
    """A new token in place of `token`, which stops at once: a long-running client renews its
    token without keeping the password. Two rotations of one token give one new token."""
    if not _claim(token):
        raise ApiTokenGone
    return api_token_issue(user=token.user, client=client or token.client)


def api_token_revoke(*, user: User, token_id: int) -> None:
    """Revoke one of the user's own tokens (ApiToken.DoesNotExist for anyone else's)."""
    if not ApiToken.objects.filter(user=user, pk=token_id).delete()[0]:
        raise ApiToken.DoesNotExist


def api_tokens_revoke_all(*, user: User) -> int:
    """Revoke every token of the user; how many there were."""
    return ApiToken.objects.filter(user=user).delete()[0]


def api_token_touch(*, token: ApiToken) -> None:
    """Note that the token was used now (at most every LAST_USED_PRECISION)."""
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


@transaction.atomic
def password_change(*, user: User, password: str) -> int:
    """Set a new password and revoke every API token of the user (a token is as good as the
    password that got it); how many were revoked. The caller keeps its own web session."""
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"new_password1": exc.messages}) from None
    user.set_password(password)
    user.save(update_fields=["password"])
    return api_tokens_revoke_all(user=user)
