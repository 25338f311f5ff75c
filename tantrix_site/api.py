"""Project-wide API plumbing: service errors become field-level HTTP 400 responses."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.views import exception_handler as drf_exception_handler


def as_drf_validation_error(exc: DjangoValidationError) -> serializers.ValidationError:
    if hasattr(exc, "error_dict"):
        return serializers.ValidationError(exc.message_dict)
    return serializers.ValidationError({"non_field_errors": exc.messages})


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = as_drf_validation_error(exc)
    return drf_exception_handler(exc, context)
