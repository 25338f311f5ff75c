"""The extension fields of a submission (such as `match`): each checked by the app that
registered it (games/hooks.py), for this actor and these seated players."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _

from games.hooks import submission_extensions
from games.records.refusals import (
    NOT_ACCEPTED_TEXT,
    NOT_ALLOWED_TEXT,
    Message,
    RefusalCode,
    Refused,
    refusal_message,
)
from players.types import User


def _error_messages(exc: ValidationError) -> list[Message]:
    """An extension's messages, kept lazy when the extension marked them with gettext_lazy."""
    return [
        refusal_message(error.message, **(error.params or {})) if error.params else error.message
        for error in exc.error_list
    ]


def validate_extensions(
    actor: User, values: dict[str, Any], seated: list
) -> tuple[dict[str, Any], bool]:
    """What to store of the extension fields, and whether one of them vouched for the actor."""
    known = submission_extensions()
    stored: dict[str, Any] = {}
    vouched = False
    for name, value in values.items():
        if value in (None, ""):
            continue
        extension = known.get(name)
        if extension is None:
            raise Refused(RefusalCode.UNKNOWN_FIELD, {name: [_(NOT_ACCEPTED_TEXT)]})
        try:
            stored[name] = extension.validate(actor=actor, value=value, seat_players=seated)
        except ValidationError as exc:
            raise Refused(RefusalCode.REJECTED, {name: _error_messages(exc)}) from None
        except PermissionDenied as exc:
            raise Refused(
                RefusalCode.REJECTED, {name: [str(exc) or _(NOT_ALLOWED_TEXT)]}, forbidden=True
            ) from None
        vouched = vouched or extension.vouches_for_submitter
    return stored, vouched
