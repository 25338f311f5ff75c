"""DRF's rate throttles, failing open when the shared cache is down.

Kept apart from `login_limits`, which imports DRF views: DRF reads DEFAULT_THROTTLE_CLASSES
while its views are being defined.
"""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from rest_framework import throttling

logger = logging.getLogger(__name__)

# What Django's Redis cache raises when its server cannot be reached.
CACHE_ERRORS = (RedisError, OSError)


def cache_down(exc: Exception) -> None:
    """The limits fail open: with the shared cache down, logins and API calls go on unthrottled
    (GET /healthz reports the cache) rather than every request answering 500."""
    logger.warning("cache unavailable; login and API limits are not applied: %s", exc)


class FailOpenThrottle(throttling.SimpleRateThrottle):
    """A DRF rate throttle that lets requests through while the shared cache is down."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as exc:
            cache_down(exc)
            return True


class AnonRateThrottle(FailOpenThrottle, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpenThrottle, throttling.UserRateThrottle):
    pass
