"""Project-wide API plumbing: service errors become HTTP answers, as the one mapping of
refusals says (`tantrix_site.http.refusals`): 403 with the service's words, 400 with field
messages, 404."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tantrix_site.http.refusals import Refusal, refusal_of


def api_exception(refusal: Refusal, *, whole_request: str) -> Exception:
    """A refusal as DRF's exception; `whole_request` names the key of messages that are no
    field's ("non_field_errors" in DRF's own handler, "detail" where a view asks)."""
    if refusal.status == 403:
        return PermissionDenied(refusal.all_messages[0] if refusal.all_messages else None)
    if refusal.status == 404:
        return Http404()
    return serializers.ValidationError(
        {whole_request if key is None else key: found for key, found in refusal.messages.items()}
    )


T = TypeVar("T")


def answer_service_errors(
    call: Callable[[], T], *, not_found: tuple[type[Exception], ...] = ()
) -> T:
    """Run a service call for an API view; its domain errors become HTTP answers: a refusal is
    403 with the service's own words, a validation error 400 (field messages, or the messages
    under ``detail``), and a missing object of one of the ``not_found`` classes 404."""
    try:
        return call()
    except (DjangoPermissionDenied, DjangoValidationError, *not_found) as exc:
        raise api_exception(refusal_of(exc, not_found=not_found), whole_request="detail") from None


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError | DjangoPermissionDenied):
        exc = api_exception(refusal_of(exc), whole_request="non_field_errors")
    elif isinstance(exc, RequestDataTooBig):
        return Response({"detail": _("The request body is too large.")}, status=413)
    elif isinstance(exc, SuspiciousOperation):
        # e.g. more form fields than DATA_UPLOAD_MAX_NUMBER_FIELDS: a bad request, said in JSON.
        exc = ParseError(_("The request could not be read: too many fields or a malformed body."))
    return drf_exception_handler(exc, context)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON under /api/, the site's own page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: JSON under /api/; elsewhere a plain page that needs no context processors."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Something went wrong on our side.")}, status=500)
    return HttpResponse(render_to_string("500.html"), status=500)
