"""Limits on failed logins, shared by the web login, the API token endpoint and the admin login.

Failed attempts are counted in Django's cache per user name and per client address. After
LOGIN_FAILURES_PER_USERNAME failures for one user name (or LOGIN_FAILURES_PER_ADDRESS from one
address) within LOGIN_FAILURE_WINDOW_SECONDS, that user name (or address) is locked for one
window: every attempt is refused without checking the password, the right one included, so a
lock never tells an attacker that a guess was right.

The counts live in the default cache. With CACHE_URL pointing at Redis every process shares
them; with the default local-memory cache each process counts on its own, so a deployment with
N web processes allows up to N times the limits.

Client address: REMOTE_ADDR. With BEHIND_TLS_PROXY the last X-Forwarded-For entry is used
instead: the one our own proxy appended (or wrote) for the peer it saw. Entries to its left are
written by the client and could be forged to dodge the per-address limit, so they are never
read; this assumes exactly one proxy in front of the site. IPv6 addresses count per /64 network,
since anyone with one IPv6 address has the whole /64 to rotate through.

Known trade-off: anyone can lock a user name for a window by failing on purpose. The per-address
limit keeps that from one address to a handful of user names per window.

Hand-written rather than django-axes, django-defender or django-ratelimit: none keeps these
promises (two limits, one lock per window, fail-open, the last hop); docs/operations.md, "Failed
logins", says what each lacks.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import math
import time
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import status
from rest_framework.exceptions import APIException, Throttled
from rest_framework.request import Request

from tantrix_site.http.throttles import CACHE_ERRORS, cache_down

_PREFIX = "login-limit:v1"


# --- Counting -------------------------------------------------------------------------------


def client_address(request: HttpRequest | Request | None) -> str | None:
    """The address failed logins are counted against (see the module docstring)."""
    if request is None:
        return None
    meta = request.META
    raw = meta.get("REMOTE_ADDR", "")
    if settings.BEHIND_TLS_PROXY:
        hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if hops and hops[-1]:
            raw = hops[-1]
    try:
        address = ipaddress.ip_address(raw.strip())
    except ValueError:
        return raw.strip()[:64] or None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _digest(value: str) -> str:
    # Hashed so that any user name makes a short key every cache backend accepts.
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def _username_scope(username: str) -> str:
    # One count for every spelling that a person would call the same name.
    return unicodedata.normalize("NFKC", username).strip().casefold()


def _scopes(username: str | None, address: str | None) -> list[tuple[str, str, int]]:
    """(counter key, lock key, limit) for each scope this attempt falls in."""
    scopes = []
    if username:
        digest = _digest(_username_scope(username))
        scopes.append(
            (
                f"{_PREFIX}:count:user:{digest}",
                f"{_PREFIX}:lock:user:{digest}",
                settings.LOGIN_FAILURES_PER_USERNAME,
            )
        )
    if address:
        digest = _digest(address)
        scopes.append(
            (
                f"{_PREFIX}:count:addr:{digest}",
                f"{_PREFIX}:lock:addr:{digest}",
                settings.LOGIN_FAILURES_PER_ADDRESS,
            )
        )
    return scopes


def login_lock_remaining(*, username: str | None, address: str | None) -> int:
    """Seconds until this user name and address may try to log in again; 0 when they may now."""
    lock_keys = [lock_key for _count, lock_key, _limit in _scopes(username, address)]
    if not lock_keys:
        return 0
    try:
        until = max(cache.get_many(lock_keys).values(), default=0.0)
    except CACHE_ERRORS as exc:
        cache_down(exc)
        return 0
    return max(0, math.ceil(until - time.time()))


def login_failure_record(*, username: str | None, address: str | None) -> None:
    try:
        _login_failure_count(username=username, address=address)
    except CACHE_ERRORS as exc:
        cache_down(exc)


def _login_failure_count(*, username: str | None, address: str | None) -> None:
    """Count a failed login; the failure that reaches a limit locks that scope for one window."""
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    for count_key, lock_key, limit in _scopes(username, address):
        # add + incr are atomic on Redis and in the local-memory cache, so concurrent failures
        # from several processes are all counted.
        cache.add(count_key, 0, timeout=window)
        try:
            failures = cache.incr(count_key)
        except ValueError:  # expired between add and incr
            cache.add(count_key, 1, timeout=window)
            failures = 1
        if failures >= limit:
            cache.set(lock_key, time.time() + window, timeout=window)


def login_success_record(*, username: str) -> None:
    """Forget the user name's failures (its owner knows the password). The address's count is
    kept: otherwise one attacker's own account would reset the limit on guessing others'."""
    for count_key, _lock_key, _limit in _scopes(username, None):
        try:
            cache.delete(count_key)
        except CACHE_ERRORS as exc:
            cache_down(exc)


def lock_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    at = timezone.localtime(timezone.now() + dt.timedelta(seconds=seconds))
    return ngettext(
        "Too many failed logins for this user name or from your network. "
        "Try again in %(minutes)d minute (after %(time)s %(zone)s).",
        "Too many failed logins for this user name or from your network. "
        "Try again in %(minutes)d minutes (after %(time)s %(zone)s).",
        minutes,
    ) % {"minutes": minutes, "time": at.strftime("%H:%M"), "zone": at.tzname()}


# --- The authentication backend: every password check goes through the limits ----------------


class LoginLimitedModelBackend(ModelBackend):
    """ModelBackend behind the login limits, so the admin login is limited too.

    Listed before ModelBackend, which stays in AUTHENTICATION_BACKENDS only so that sessions
    it made (sign-up logs in with it) stay valid. A failed check raises PermissionDenied, which
    ends authenticate() at once: ModelBackend would only check the same password again.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        address = client_address(request)
        if login_lock_remaining(username=username, address=address):
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            login_failure_record(username=username, address=address)
            raise PermissionDenied
        login_success_record(username=username)
        return user


# --- The API token endpoint's refusals (players/tokens/api.py) -------------------------------


class RequestBodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is too large.")
    default_code = "too_large"


class LoginLocked(Throttled):
    default_code = "login_locked"

    def __init__(self, wait: int):
        APIException.__init__(self, lock_message(wait))
        self.wait = wait


# --- The web login --------------------------------------------------------------------------


class LimitedAuthenticationForm(AuthenticationForm):
    def __init__(self, request: HttpRequest | None = None, *args: Any, **kwargs: Any):
        super().__init__(request, *args, **kwargs)
        self.retry_after = 0

    def clean(self):
        wait = login_lock_remaining(
            username=self.cleaned_data.get("username"), address=client_address(self.request)
        )
        if wait:
            self.retry_after = wait
            raise ValidationError(lock_message(wait), code="login_locked")
        return super().clean()


class LimitedLoginView(LoginView):
    form_class = LimitedAuthenticationForm

    def form_invalid(self, form: LimitedAuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.retry_after:
            response.status_code = status.HTTP_429_TOO_MANY_REQUESTS
            response["Retry-After"] = str(form.retry_after)
        return response
