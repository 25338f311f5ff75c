"""Django's Redis cache, with one Redis client per connection pool.

Django's client builds a new `redis.Redis` for every cache call, and building one fills its table
of response callbacks (about 150 entries): a few tenths of a millisecond each time, several
times per API request (throttle, task scheduling). The client is only a façade over the pool,
safe to share, so it is built once per pool. Everything else is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class _ClientPerPool(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict) -> None:
        super().__init__(server, params)
        self._class = _ClientPerPool
