"""`Idempotency-Key`: a repeated request gets the first answer again, byte for byte.

A view opts in (`idempotent = True` on a class-based view, the `idempotent` decorator on a
function). For such a view, a request with an unsafe method and an `Idempotency-Key` header runs
in one transaction with the keeping of its answer: the view does its work, then the answer is
inserted under (user, key, method, path), unique in the database, and both commit together or not
at all. The user is known only once the view has authenticated the request (DRF authenticates
inside the view), so the key is checked when the answer is kept, not before the work:

- a repeat, once the first answer is kept: the insert fails at once, the repeat's work is rolled
  back, and the kept answer is replayed with `Idempotent-Replayed: true`;
- two requests racing with one key: the second's insert waits for the first's transaction; when
  the first commits, the second is rolled back and replays the first's answer (when the first
  rolls back, the second's own answer stands). Nobody gets a 409, and no key names two answers.

Only answers the view decided are kept: a server error (5xx: its work is rolled back, so a repeat
does the work again) or an answer that asks the client to come back (401, 407, 408, 409, 423,
425, 429) is given as it is, and so is an answer to an anonymous request (there is nobody to key
it to) or a streamed one. The work of a repeat that is replayed is undone, so an opted-in view
keeps its side effects inside the transaction (`transaction.on_commit` for tasks and mail).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation

from tantrix_site.idempotency.models import KEY_MAX_LENGTH, PATH_MAX_LENGTH, FirstAnswer

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
# What a replay must say of its body besides the bytes; the site's other headers (security,
# Vary, cookies) are added to every answer by the middleware around this one.
KEPT_HEADERS = ("Content-Type", "Content-Language", "Location")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# Answers that ask the client to try again later or otherwise: never kept for the key.
COME_BACK = frozenset({401, 407, 408, 409, 423, 425, 429})


def idempotent(view: Any) -> Any:
    """Mark a function view: a repeated Idempotency-Key gets its first answer again."""
    view.idempotent = True
    return view


def request_key(request: HttpRequest) -> str | None:
    """The request's Idempotency-Key as kept: printable characters, trimmed, at most 128 of
    them; None without one, and for a safe method (which changes nothing to repeat)."""
    if request.method in SAFE_METHODS:
        return None
    raw = request.headers.get(HEADER, "")
    key = "".join(ch for ch in raw if ch.isprintable()).strip()[:KEY_MAX_LENGTH]
    return key or None


def _opted_in(request: HttpRequest) -> bool:
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return False
    view = match.func
    view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
    return bool(getattr(view, "idempotent", False) or getattr(view_class, "idempotent", False))


def _kept(response: HttpResponse, user: Any) -> bool:
    return (
        response.status_code < 500
        and response.status_code not in COME_BACK
        and not response.streaming
        and user is not None
        and bool(user.is_authenticated)
    )


def _headers(response: HttpResponse) -> dict[str, str]:
    headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    # LocaleMiddleware, further out, names the language after this one has seen the answer;
    # the body was written in the language active now, and a replay must say so.
    language = translation.get_language()
    if language and "Content-Language" not in headers:
        headers["Content-Language"] = language
    return headers


def replay(first: FirstAnswer) -> HttpResponse:
    """The kept answer, as it was given, marked as a replay."""
    response = HttpResponse(bytes(first.body), status=first.status)
    for name, value in first.headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


class IdempotencyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request_key(request)
        if key is None or len(request.path) > PATH_MAX_LENGTH or not _opted_in(request):
            return self.get_response(request)
        where = {"key": key, "method": request.method, "path": request.path}
        user = None
        try:
            with transaction.atomic():
                response = self.get_response(request)
                user = getattr(request, "user", None)
                if response.status_code >= 500:
                    # Nothing half-way: the work is undone, and a repeat does it again.
                    transaction.set_rollback(True)
                elif _kept(response, user):
                    FirstAnswer.objects.create(
                        user=user,
                        status=response.status_code,
                        headers=_headers(response),
                        body=response.content,
                        **where,
                    )
        except IntegrityError:
            # The key's answer is kept already (a repeat), or was kept meanwhile by a request
            # this one waited for (a race): this one's work is rolled back, the first answered.
            first = FirstAnswer.objects.filter(user=user, **where).first() if user else None
            if first is None:
                raise
            return replay(first)
        return response
