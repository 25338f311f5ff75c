"""Shared fixtures. The suite runs against real PostgreSQL and Redis (see README: make test)."""

from __future__ import annotations

import hashlib
import os
import re
import socket
from urllib.parse import urlparse

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, UserFactory, make_organiser

HOW_TO_START = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": "redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ''",
}


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2
        ):
            return True
    except OSError:
        return False


def pytest_sessionstart(session: pytest.Session) -> None:
    """Fail fast, naming the server that is down and how to start it."""
    checks = []
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url.startswith("postgres"):
        checks.append(("PostgreSQL", database_url, 5432))
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if broker_url:
        checks.append(("Redis", broker_url, 6379))
    for name, url, port in checks:
        if not _reachable(url, port):
            pytest.exit(
                f"{name} is not reachable at {url}. Start it with: {HOW_TO_START[name]}",
                returncode=3,
            )
    if database_url.startswith("postgres"):
        _drop_test_databases_of_dead_runs(database_url)
    _quick_password_hashing()


def _quick_password_hashing() -> None:
    from django.conf import settings
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = [
        "tests.hashers.QuickPBKDF2PasswordHasher",
        *settings.PASSWORD_HASHERS,
    ]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


def run_tag() -> str:
    """This machine and process: test databases are named test_<name>_<host>_<pid>.

    The host part (a short hash of the host name) keeps a run on one machine from judging the
    databases of runs on another machine sharing the PostgreSQL server by their pids.
    """
    host = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
    return f"{host}_{os.getpid()}"


def _drop_test_databases_of_dead_runs(database_url: str) -> None:
    """A run that was killed leaves its test database behind; drop this machine's such ones.

    Only databases tagged with this host whose process is gone, and that nobody is connected
    to, are dropped: never another machine's, never one in use. The walks' database
    (test_<name>_<host>_<pid>_walk) is one of them.
    """
    import psycopg

    parsed = urlparse(database_url)
    host = run_tag().split("_", 1)[0]
    prefix = f"test_{parsed.path.lstrip('/')}_{host}_"
    with psycopg.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT datname FROM pg_database d WHERE starts_with(datname, %s) AND NOT EXISTS "
                "(SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)",
                [prefix],
            )
        ]
        for name in names:
            # The walks' production database carries a suffix (tests/walks/conftest.py).
            pid = name[len(prefix) :].removesuffix("_walk")
            if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
                continue
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@pytest.fixture(autouse=True)
def _eager_celery_unless_integration(request):
    """Unit tests run tasks in-process; integration tests use real worker processes."""
    from tantrix_site.celery import app

    if request.node.get_closest_marker("integration"):
        yield
        return
    # With namespace="CELERY" the prefixed key is the one Celery reads back.
    previous = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = previous


@pytest.fixture(autouse=True)
def _site_language_in_every_test():
    """A request in another language leaves that language active in the thread (LocaleMiddleware
    activates it and nothing deactivates it after the response), and a later test that reads a
    label would get it in Turkish, depending on the order the tests ran in."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


# SQL that takes row locks (select_for_update in its four strengths) or a transaction-scoped
# advisory lock: without a transaction of the code's own, the first answers 500 on a server
# (TransactionManagementError) and the second is released as soon as it is taken.
ROW_LOCKING_SQL = re.compile(
    r"\bFOR\s+(?:NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b|\bpg_advisory_xact_lock",
    re.IGNORECASE,
)


class RowLockOutsideAtomic(Exception):
    """Row-locking SQL ran while the code under test had opened no `transaction.atomic`."""


def _uses_database(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("django_db") is not None or any(
        name in request.fixturenames for name in ("_django_db_helper", "live_server")
    )


@pytest.fixture(autouse=True)
def _row_locks_only_inside_atomic(request):
    """Fails every test in which row-locking SQL runs outside an atomic block of the code's own.

    Each test runs inside pytest-django's own transaction (none with transactional_db), which
    hides a missing `@transaction.atomic`: select_for_update does not complain there, and every
    profile edit answered 500 on a real server (issue 26). The test's own atomic blocks are
    counted first (the database fixture is set up before the count), and a lock is allowed only
    with more blocks open than that. A violation raises, and is also reported when the test ends
    in case the code under test swallowed the exception. See docs/architecture.md, "Row locks".
    """
    if not _uses_database(request):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    from django.db import connection

    baseline = len(connection.atomic_blocks)
    caught: list[str] = []

    def check(execute, sql, params, many, context):
        if len(context["connection"].atomic_blocks) <= baseline and ROW_LOCKING_SQL.search(sql):
            caught.append(sql)
            raise RowLockOutsideAtomic(
                f"row-locking SQL outside transaction.atomic (DESIGN.md, Reliability rules): {sql}"
            )
        return execute(sql, params, many, context)

    with connection.execute_wrapper(check):
        yield
    if caught:
        pytest.fail(
            "row-locking SQL ran outside transaction.atomic:\n" + "\n".join(caught),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user_player(db):
    """A player with an account."""
    return PlayerFactory(with_user=True)


@pytest.fixture
def other_player(db):
    return PlayerFactory(with_user=True)


@pytest.fixture
def organiser(db):
    return make_organiser()


@pytest.fixture
def co_organiser(db):
    return make_organiser()


@pytest.fixture
def outsider(db):
    """An authenticated user with no role over the object under test."""
    return PlayerFactory(with_user=True).user


@pytest.fixture
def admin_user(db):
    return UserFactory(is_staff=True, is_superuser=True)


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """One test database per run, so runs started side by side never drop each other's."""
    from django.conf import settings

    for alias in settings.DATABASES.values():
        test = alias.setdefault("TEST", {})
        base = test.get("NAME") or f"test_{alias['NAME']}"
        if alias["ENGINE"].endswith("postgresql"):
            test["NAME"] = f"{base}_{run_tag()}"
