"""Walks: a real browser through every role's main journeys, on the two set-ups people run.

Each configuration is a server of its own, started once per session in subprocesses, with its own
fresh data and no transaction around anything (docs/testing.md):

- ``make_run``: the README's `make run`: `manage.py runserver` on a new SQLite file, DEBUG on,
  Celery tasks eager in the web process (no broker);
- ``production``: the README's production-style run: gunicorn with DEBUG off on a PostgreSQL
  database made for the walks (dropped after), a real `celery worker` process, broker and cache
  on a Redis server of the walks' own (so no other test's worker or queue purge meets them).

A walk fails on any 5xx answer the browser sees and on any ERROR, CRITICAL or traceback in the
output of the site's processes while it ran (Django logs request errors to stderr in both).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import run_tag
from tests.integration.conftest import PrivateRedis, die_with_the_test_run, free_port, wait_for

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "tantrix-demo"  # every seed_demo account's
ERROR_LINE = re.compile(r"\b(?:ERROR|CRITICAL)\b|Traceback \(most recent call last\)")
# The settings the walks give themselves; the test run's own are not passed on.
NOT_PASSED_ON = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "TEST_DATABASE_URL",
    "TEST_BROKER_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "STATIC_ROOT",
    "LOG_LEVEL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
WALK_DATABASE_SUFFIX = "_walk"
PATIENCE_MS = 20_000  # how long a walk waits for any one thing to appear


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log: Path

    def output(self, start: int = 0) -> str:
        with self.log.open("rb") as stream:
            stream.seek(start)
            return stream.read().decode(errors="replace")

    def size(self) -> int:
        return self.log.stat().st_size

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@dataclass
class Site:
    """One running configuration: its address, processes, environment and seeded data."""

    name: str
    env: dict[str, str]
    tmp: Path
    url: str = ""
    processes: list[Process] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    broker_url: str = ""
    cleanups: list = field(default_factory=list)

    def run(self, *argv: str, env: dict[str, str] | None = None) -> str:
        """A command in the site's environment (migrate, collectstatic, the seed); its output."""
        ran = subprocess.run(
            [sys.executable, *argv],
            cwd=REPO,
            env=env or self.env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if ran.returncode != 0:
            raise RuntimeError(f"{argv} failed on {self.name}:\n{ran.stdout}\n{ran.stderr}")
        return ran.stdout + ran.stderr

    def start(self, name: str, *argv: str) -> Process:
        """A long-running process; it dies with the thread that started it (PDEATHSIG), so
        sites are prepared by threads that live until the session ends (Sites)."""
        log = self.tmp / f"{name}.log"
        with log.open("wb") as output:
            proc = subprocess.Popen(
                [sys.executable, *argv],
                cwd=REPO,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_the_test_run,
            )
        process = Process(name, proc, log)
        self.processes.append(process)
        return process

    def serve(self, name: str, port: int, *argv: str) -> None:
        process = self.start(name, *argv)
        self.url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            if process.proc.poll() is not None:
                raise RuntimeError(f"{name} stopped:\n{process.output()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(answers, timeout=90, interval=0.2, what=f"{name} on {self.name}")

    def log_sizes(self) -> dict[str, int]:
        return {p.name: p.size() for p in self.processes}

    def errors_since(self, sizes: dict[str, int]) -> list[str]:
        found = []
        for process in self.processes:
            text = process.output(sizes.get(process.name, 0))
            lines = text.splitlines()
            for number, line in enumerate(lines):
                if ERROR_LINE.search(line):
                    found.append(f"[{process.name}] " + "\n".join(lines[number : number + 30]))
                    break
        return found

    def wait_idle(self) -> None:
        """Production: wait until the worker has taken and finished every queued task, so what
        it logs is judged with the walk that caused it."""
        if not self.broker_url:
            return
        import redis
        from django.conf import settings

        client = redis.Redis.from_url(self.broker_url)
        try:
            wait_for(
                lambda: not any(client.llen(q) for q in settings.CELERY_TASK_QUEUES)
                and not client.hlen("unacked"),
                timeout=90,
                interval=0.1,
                what=f"the {self.name} worker to finish its tasks",
            )
        finally:
            client.close()

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.stop()
        for cleanup in reversed(self.cleanups):
            cleanup()
        self.cleanups.clear()


def _environment(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED_ON}
    env.update(PYTHONUNBUFFERED="1", **settings)
    return env


def _seed(site: Site, env: dict[str, str]) -> None:
    manifest = site.tmp / "manifest.json"
    site.run("-m", "tests.walks.seed", str(manifest), env=env)
    site.manifest = json.loads(manifest.read_text())


def _make_run(site: Site) -> None:
    """`make run`: DEBUG, SQLite, tasks eager, the development server."""
    site.env = _environment(DEBUG="1", DATABASE_URL=f"sqlite:///{site.tmp / 'db.sqlite3'}")
    site.run("manage.py", "migrate", "--noinput", "-v", "0")
    _seed(site, site.env)
    port = free_port()
    site.serve("runserver", port, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}")


def _postgres(url: str, statement: str) -> None:
    import psycopg

    parsed = urlparse(url)
    with psycopg.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        conn.execute(statement)


def _production(site: Site) -> None:
    """The production-style run: DEBUG off, PostgreSQL, gunicorn, a Celery worker, Redis."""
    server = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL", "")
    if not server.startswith("postgres"):
        raise RuntimeError("the production walks need TEST_DATABASE_URL (PostgreSQL)")
    parsed = urlparse(server)
    # Named like the run's test database, so a killed run's is dropped by the next run
    # (tests/conftest.py, _drop_test_databases_of_dead_runs).
    name = f"test_{parsed.path.lstrip('/')}_{run_tag()}{WALK_DATABASE_SUFFIX}"
    redis_server = PrivateRedis(site.tmp)
    redis_server.start()
    site.cleanups.append(redis_server.stop)
    _postgres(server, f'DROP DATABASE IF EXISTS "{name}"')
    _postgres(server, f'CREATE DATABASE "{name}"')
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    site.cleanups.append(lambda: _postgres(server, drop))
    site.broker_url = redis_server.url
    site.env = _environment(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=parsed._replace(path=f"/{name}").geturl(),
        CELERY_BROKER_URL=site.broker_url,
        CACHE_URL=site.broker_url.rsplit("/", 1)[0] + "/1",
        STATIC_ROOT=str(site.tmp / "static"),
        CELERY_BEAT_SCHEDULE_FILENAME=str(site.tmp / "beat-schedule"),
    )
    # Compressing the static files takes a while: meanwhile the database is made and seeded.
    collectstatic = site.start(
        "collectstatic", "manage.py", "collectstatic", "--noinput", "-v", "0"
    )
    site.run("manage.py", "migrate", "--noinput", "-v", "0")
    # The seed runs its tasks in-process (no broker), so it is complete when it returns.
    _seed(site, {k: v for k, v in site.env.items() if k != "CELERY_BROKER_URL"})
    worker = site.start(
        "worker",
        "-m",
        "celery",
        "-A",
        "tantrix_site",
        "worker",
        "--loglevel",
        "INFO",
        "--concurrency",
        "2",
        "--without-gossip",
        "--without-mingle",
        "-n",
        f"walk-{os.getpid()}@%h",
    )
    if collectstatic.proc.wait(timeout=600) != 0:
        raise RuntimeError(f"collectstatic failed:\n{collectstatic.output()}")
    site.processes.remove(collectstatic)
    port = free_port()
    site.serve(
        "gunicorn",
        port,
        "-m",
        "gunicorn",
        "tantrix_site.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        "--timeout",
        "60",
    )
    wait_for(
        lambda: "ready." in worker.output(),
        timeout=90,
        interval=0.2,
        what="the walk's celery worker",
    )


SITES = {"make_run": _make_run, "production": _production}


class Sites:
    """The configurations this session walks, prepared side by side in the background as the
    session starts (their commands are subprocesses), each handed out when its walks begin."""

    def __init__(self, names: list[str], tmp_path_factory) -> None:
        self.sites = {name: Site(name, {}, tmp_path_factory.mktemp(name)) for name in names}
        self.pool = ThreadPoolExecutor(max_workers=max(1, len(names)))
        self.ready = {
            name: self.pool.submit(SITES[name], site) for name, site in self.sites.items()
        }

    def get(self, name: str) -> Site:
        self.ready[name].result()  # its preparation's error, if it failed
        return self.sites[name]

    def close(self) -> None:
        for future in self.ready.values():
            future.cancel()
            with contextlib.suppress(BaseException):
                future.result()  # a preparation still running ends before its site stops
        for site in self.sites.values():
            site.stop()
        self.pool.shutdown()


@pytest.fixture(scope="session")
def _sites(request, tmp_path_factory) -> Iterator[Sites]:
    names = sorted(
        {
            item.callspec.params["site"]
            for item in request.session.items
            if "site" in getattr(getattr(item, "callspec", None), "params", {})
        },
        key=list(SITES).index,
    )
    sites = Sites(names, tmp_path_factory)
    try:
        yield sites
    finally:
        sites.close()


@pytest.fixture(scope="session", params=list(SITES))
def site(request, _sites) -> Site:
    """One configuration (pytest runs every walk on one, then on the other)."""
    return _sites.get(request.param)


@pytest.fixture(scope="module")
def browser():
    """Module scope: Playwright's event loop must not outlive the walks (tests/browser)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"The walks need Chromium at {CHROMIUM}. Install it with `apt-get install -y "
            "chromium` (or `make browser`; `make test` does it when root).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class People:
    """Browser tabs of the people of one walk, each in a browser context of their own (their
    own cookies), watched for 5xx answers."""

    def __init__(self, browser, site: Site) -> None:
        self.browser = browser
        self.site = site
        self.contexts: list = []
        self.server_errors: list[str] = []

    def tab(self, username: str | None = None, *, password: str = PASSWORD):
        context = self.browser.new_context(
            base_url=self.site.url, viewport={"width": 1280, "height": 900}
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PATIENCE_MS)
        page.on(
            "response",
            lambda response: response.status >= 500
            and self.server_errors.append(
                f"{response.status} {response.request.method} {response.url}"
            ),
        )
        if username:
            log_in(page, username, password)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def log_in(page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main").get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.fixture
def people(browser, site) -> Iterator[People]:
    """The walk's people; afterwards no 5xx may have been answered and no process of the site
    may have logged an error while the walk ran (the worker is waited for first)."""
    from playwright.sync_api import expect

    sizes = site.log_sizes()
    crowd = People(browser, site)
    # What the worker does, and the pages that refresh themselves, may take longer than
    # expect()'s five seconds on a busy machine; the pages' own actions wait as long.
    expect.set_options(timeout=PATIENCE_MS)
    try:
        yield crowd
    finally:
        expect.set_options(timeout=5_000)
        crowd.close()
    site.wait_idle()
    problems = [f"server error answered: {line}" for line in crowd.server_errors]
    problems += [f"error logged: {text}" for text in site.errors_since(sizes)]
    if problems:
        pytest.fail(f"on {site.name}:\n" + "\n\n".join(problems), pytrace=False)
