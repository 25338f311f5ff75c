"""Small typed readers for settings taken from the environment.

Each reader fails at start-up with a message naming the variable and what it expected, so a
mistyped deployment never half-works.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from typing import TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}

N = TypeVar("N", int, float)


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    source = os.environ if environ is None else environ
    value = source.get(name)
    return None if value is None else value.strip()


def env_str(name: str, default: str = "", *, environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off"
    )


def _parsed(name: str, value: str, parse: Callable[[str], N], what: str) -> N:
    try:
        return parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not {what}") from None


def _within(name: str, number: N, minimum: N | None, maximum: N | None) -> N:
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}")
    return number


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None or value == "":
        return default
    return _within(name, _parsed(name, value, int, "a whole number"), minimum, maximum)


def env_float(
    name: str,
    default: float,
    *,
    minimum: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> float:
    value = _raw(name, environ)
    if value is None or value == "":
        return default
    number = _parsed(name, value, float, "a number")
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a finite number")
    return _within(name, number, minimum, None)


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_timezone(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    value = env_str(name, default, environ=environ)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not an IANA time zone (e.g. UTC, Europe/Berlin)"
        ) from None
    return value


def env_database_url(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> dict:
    """Parse a database URL; only PostgreSQL and SQLite are supported."""
    value = env_str(name, default, environ=environ) or default
    scheme = value.split(":", 1)[0].lower()
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(
            f"{name}={value!r}: only postgres://... and sqlite:///... URLs are supported"
        )
    try:
        config = dj_database_url.parse(value, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not a valid database URL: {exc}") from None
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={value!r} names no database")
    if scheme == "sqlite":
        # The zero-setup local database: with the default rollback journal every commit waits for
        # an fsync (7 ms each here, a third of `load_demo`); write-ahead logging with NORMAL sync
        # keeps the database consistent after a crash and loses at most the last commits on a
        # power cut, which a local demo can afford.
        config.setdefault("OPTIONS", {})["init_command"] = (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        )
    return config


def env_broker_url(name: str, *, environ: Mapping[str, str] | None = None) -> str:
    """Empty means 'no broker: run tasks eagerly in-process'."""
    value = env_str(name, "", environ=environ)
    if value and not value.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(
            f"{name}={value!r}: the broker must be Redis (redis://host:port/db), or empty for eager"
        )
    return value
