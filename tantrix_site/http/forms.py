"""Form plumbing shared by every app's pages: a service's refusal on the form's fields, as the
one mapping of refusals says (`tantrix_site.http.refusals`)."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.core.exceptions import ValidationError

from tantrix_site.http.refusals import refusal_of


def apply_service_errors(
    form: forms.Form, exc: ValidationError, *, fields: Mapping[str, str] | None = None
) -> None:
    """Put a service's errors on the form's fields (`fields` renames a service's field to the
    form's); errors for other names go above the form."""
    renamed = fields or {}
    refusal = refusal_of(exc)
    if refusal is None or refusal.status != 400:
        raise exc
    for field, errors in refusal.messages.items():
        field = renamed.get(field, field) if field is not None else None
        form.add_error(field if field in form.fields else None, errors)
