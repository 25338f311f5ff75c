"""GET /healthz: is the database answering, and the broker (unless Celery runs eagerly)?"""

from __future__ import annotations

import contextlib

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def database_status() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means "down", reported by name
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


def broker_status() -> dict:
    url = settings.CELERY_BROKER_URL
    if not url:
        return {"ok": True, "mode": "eager"}
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "mode": "redis", "error": str(exc)[:200]}
    finally:
        with contextlib.suppress(Exception):
            client.close()
    return {"ok": True, "mode": "redis"}


def cache_status() -> dict:
    """The shared cache (CACHE_URL): throttles and login limits are off while it is down."""
    if not settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        return {"ok": True, "mode": "local"}
    try:
        cache.set("healthz", "1", timeout=5)
    except Exception as exc:  # noqa: BLE001 - any failure means "down", reported by name
        return {"ok": False, "mode": "redis", "error": str(exc)[:200]}
    return {"ok": True, "mode": "redis"}


@never_cache
@require_GET
def healthz(request):
    checks = {"database": database_status(), "broker": broker_status(), "cache": cache_status()}
    failing = [name for name, check in checks.items() if not check["ok"]]
    body = {"status": "ok" if not failing else "unavailable", "failing": failing, **checks}
    return JsonResponse(body, status=200 if not failing else 503)
