import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from tantrix_site import env

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("", False),
        ("off", False),
    ],
)
def test_env_bool_accepts_the_usual_spellings(raw, expected):
    assert env.env_bool("FLAG", not expected, environ={"FLAG": raw}) is expected


def test_env_bool_default_when_unset():
    assert env.env_bool("FLAG", True, environ={}) is True


def test_env_bool_refuses_anything_else():
    with pytest.raises(ImproperlyConfigured, match="FLAG='maybe' is not a boolean"):
        env.env_bool("FLAG", False, environ={"FLAG": "maybe"})


def test_env_int_parses_and_checks_bounds():
    assert env.env_int("N", 5, environ={"N": " 42 "}) == 42
    assert env.env_int("N", 5, environ={}) == 5
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env.env_int("N", 5, environ={"N": "4.5"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum 1"):
        env.env_int("N", 5, minimum=1, environ={"N": "0"})
    with pytest.raises(ImproperlyConfigured, match="above the maximum 10"):
        env.env_int("N", 5, maximum=10, environ={"N": "11"})


def test_env_float_refuses_non_finite():
    assert env.env_float("F", 1.0, environ={"F": "2.5"}) == 2.5
    with pytest.raises(ImproperlyConfigured, match="not a finite number"):
        env.env_float("F", 1.0, environ={"F": "nan"})
    with pytest.raises(ImproperlyConfigured, match="not a number"):
        env.env_float("F", 1.0, environ={"F": "fast"})
    with pytest.raises(ImproperlyConfigured, match="not a finite number"):
        env.env_float("F", 1.0, environ={"F": "-inf"})
    with pytest.raises(ImproperlyConfigured, match="F=0.1 is below the minimum 0.5"):
        env.env_float("F", 1.0, minimum=0.5, environ={"F": "0.1"})


def test_env_list_splits_and_trims():
    assert env.env_list("H", ["x"], environ={"H": "a.org, b.org,,"}) == ["a.org", "b.org"]
    assert env.env_list("H", ["x"], environ={}) == ["x"]


def test_env_timezone():
    assert env.env_timezone("TZ", "UTC", environ={"TZ": "Europe/Berlin"}) == "Europe/Berlin"
    with pytest.raises(ImproperlyConfigured, match="not an IANA time zone"):
        env.env_timezone("TZ", "UTC", environ={"TZ": "Mars/Olympus"})


def test_database_url_postgres_and_sqlite():
    pg = env.env_database_url("DB", "", environ={"DB": "postgres://u:p@db.example:5433/tantrix"})
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["HOST"], pg["PORT"], pg["USER"]) == ("tantrix", "db.example", 5433, "u")
    lite = env.env_database_url("DB", "sqlite:////tmp/x.sqlite3", environ={})
    assert lite["ENGINE"] == "django.db.backends.sqlite3"


def test_database_url_refuses_other_engines():
    with pytest.raises(ImproperlyConfigured, match="only postgres"):
        env.env_database_url("DB", "", environ={"DB": "mysql://root@localhost/x"})


def test_broker_url_must_be_redis_or_empty():
    assert env.env_broker_url("B", environ={}) == ""
    assert env.env_broker_url("B", environ={"B": "redis://h:6379/1"}) == "redis://h:6379/1"
    with pytest.raises(ImproperlyConfigured, match="must be Redis"):
        env.env_broker_url("B", environ={"B": "amqp://guest@localhost//"})


def _start_django(**overrides: str) -> subprocess.CompletedProcess:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "CELERY_BROKER_URL"}
    }
    environment.update(overrides)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=REPO,
        env={**environment, "DJANGO_SETTINGS_MODULE": "tantrix_site.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_refuses_to_start_without_secret_key_when_not_debugging():
    result = _start_django(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_starts_with_development_key_in_debug():
    result = _start_django(DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


def test_production_settings_are_secure():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, "
        "s.CELERY_TASK_ALWAYS_EAGER)"
    )
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG"}}
    environment.update(
        DEBUG="0",
        SECRET_KEY="x" * 50,
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        CACHE_URL="redis://127.0.0.1:6379/1",
        DJANGO_SETTINGS_MODULE="tantrix_site.settings",
        BEHIND_TLS_PROXY="1",  # HSTS is sent only where the site is served over HTTPS
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "False"]


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DATABASE_URL", "mysql://x@y/z", "only postgres"),
        ("CELERY_BROKER_URL", "amqp://guest@localhost//", "must be Redis"),
        ("TIME_ZONE", "Nowhere/Else", "not an IANA time zone"),
        ("DEBUG", "perhaps", "is not a boolean"),
        ("API_PAGE_SIZE", "lots", "not a whole number"),
    ],
)
def test_bad_values_fail_at_start_with_a_clear_message(variable, value, message):
    result = _start_django(**{"DEBUG": "1", variable: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_production_with_a_broker_requires_a_shared_cache():
    result = _start_django(
        DEBUG="0", SECRET_KEY="x" * 50, CELERY_BROKER_URL="redis://127.0.0.1:6379/0", CACHE_URL=""
    )
    assert result.returncode != 0
    assert "CACHE_URL is not set" in result.stderr
    shared = _start_django(
        DEBUG="0",
        SECRET_KEY="x" * 50,
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        CACHE_URL="redis://127.0.0.1:6379/1",
    )
    assert shared.returncode == 0, shared.stderr
