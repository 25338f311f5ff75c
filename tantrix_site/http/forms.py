"""Form plumbing shared by every app's pages."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def apply_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's errors on the form's fields; errors for other names go above the form."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
