"""One mapping from a domain refusal to an answer, web and API alike (issue 27).

Services raise domain errors: `PermissionDenied` (this person may not; its words say why),
`ValidationError` (this may not be, with messages by field), or a missing object (Http404, or
the classes a caller names as `not_found`). `refusal_of`
is the one place that says what each is for a person: its HTTP status and its messages by
field (None: not one field's). Everything that answers one reads it:

- the API: `answers.exception_handler` (DRF's handler) and `answers.answer_service_errors`;
- a web form: `forms.apply_service_errors` puts the messages on its fields;
- a web button (a POST with no form to show again): `tell_refusal` says them as messages;
- a permission refusal on the web is Django's 403 page, with its words (templates/403.html).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest


@dataclass(frozen=True)
class Refusal:
    status: int  # 403, 400 or 404
    # field -> its messages; None: messages about the whole request
    messages: dict[str | None, list[str]] = field(default_factory=dict)

    @property
    def all_messages(self) -> list[str]:
        return [message for found in self.messages.values() for message in found]


def refusal_of(
    exc: BaseException, *, not_found: tuple[type[BaseException], ...] = ()
) -> Refusal | None:
    """What a domain error means for a person; None for anything else (a bug: let it raise)."""
    if isinstance(exc, PermissionDenied):
        return Refusal(403, {None: [str(exc)]} if str(exc) else {})
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return Refusal(400, dict(exc.message_dict))
        return Refusal(400, {None: list(exc.messages)})
    if isinstance(exc, (Http404, *not_found)):
        return Refusal(404)
    return None


def tell_refusal(request: HttpRequest, exc: ValidationError | PermissionDenied) -> None:
    """A refused button on a web page: its messages shown on the next page. A permission
    refusal is not told there: it is raised on, to the 403 page."""
    refusal = refusal_of(exc)
    if refusal is None or refusal.status != 400:
        raise exc
    for message in refusal.all_messages:
        messages.error(request, message)
