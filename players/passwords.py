"""The one maximum length of a password, which every place that takes one agrees on.

Sign-up (web, API, claim links), the password change page and the admin check it as a password
validator (settings.AUTH_PASSWORD_VALIDATORS); the API token endpoint checks it on its
`password` field, with the same message, and its body limit is made to fit the longest
password in the longest spelling a client may send (`TOKEN_REQUEST_MAX_BYTES`). The web login
does not check it, so that an account made before the limit existed can still sign in and
choose a shorter password (docs/api-tokens.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

# One character of a password takes at most 12 bytes in a request body: an astral character
# is "\\ud83d\\ude00" in JSON and "%F0%9F%98%80" in a form. A user name has at most 150
# characters; 4 KB more covers the field names, the punctuation and a client's extra fields.
_BYTES_PER_CHARACTER = 12
_USERNAME_MAX_LENGTH = 150


def password_max_length() -> int:
    return settings.PASSWORD_MAX_LENGTH


def token_request_max_bytes() -> int:
    """The largest body the token endpoint reads: a maximal user name and password fit."""
    return _BYTES_PER_CHARACTER * (password_max_length() + _USERNAME_MAX_LENGTH) + 4096


def too_long_message(limit: int) -> str:
    return ngettext(
        "A password has at most %(limit)d character.",
        "A password has at most %(limit)d characters.",
        limit,
    ) % {"limit": limit}


class MaximumLengthValidator:
    """Refuse a password longer than settings.PASSWORD_MAX_LENGTH."""

    def __init__(self, max_length: int | None = None) -> None:
        self.max_length = max_length

    def _limit(self) -> int:
        return self.max_length or password_max_length()

    def validate(self, password: str, user: Any = None) -> None:
        limit = self._limit()
        if len(password) > limit:
            raise ValidationError(
                too_long_message(limit), code="password_too_long", params={"limit": limit}
            )

    def get_help_text(self) -> str:
        limit = self._limit()
        return ngettext(
            "Your password can't be longer than %(limit)d character.",
            "Your password can't be longer than %(limit)d characters.",
            limit,
        ) % {"limit": limit}
