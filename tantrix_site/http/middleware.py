"""Request plumbing shared by every view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.translation import ngettext

from tantrix_site.errors import ServiceBusy


def oversized_body_allowed(view: Any) -> Any:
    """Mark a view that reads its own body within bounds (it stores what an oversized one was)."""
    view.oversized_body_allowed = True
    return view


def declared_body_size(request: HttpRequest) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


class RequestSizeLimitMiddleware:
    """Refuse a request body over REQUEST_MAX_BYTES before anything reads or parses it.

    Django bounds form data (DATA_UPLOAD_MAX_MEMORY_SIZE), but DRF's JSON parser and file
    uploads read whatever arrives. Views marked `oversized_body_allowed` handle it themselves.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, view_args, view_kwargs):
        limit = settings.REQUEST_MAX_BYTES
        if declared_body_size(request) <= limit:
            return None
        cls = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
        if getattr(view_func, "oversized_body_allowed", False) or getattr(
            cls, "oversized_body_allowed", False
        ):
            return None
        message = ngettext(
            "The request body is larger than the limit of %(limit)s byte.",
            "The request body is larger than the limit of %(limit)s bytes.",
            limit,
        ) % {"limit": number_format(limit, force_grouping=True)}
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=413)
        return HttpResponse(
            render_to_string("413.html", {"message": message}, request=request), status=413
        )


class ServiceBusyMiddleware:
    """A `ServiceBusy` from any view becomes 503 with Retry-After, in JSON or as a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, ServiceBusy):
            return None
        message = str(exception)
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": message}, status=503)
        else:
            response = HttpResponse(
                render_to_string("503.html", {"message": message}, request=request), status=503
            )
        response["Retry-After"] = str(exception.retry_after)
        return response
