"""Real Celery worker processes against the test PostgreSQL database and Redis."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

REPO = Path(__file__).resolve().parents[2]


_PR_SET_PDEATHSIG = 1


def die_with_the_test_run() -> None:
    """``preexec_fn`` of every process a test starts: the kernel sends it SIGTERM when the
    pytest process dies, even by SIGKILL or a CI timeout. Without it a killed run left its
    Celery workers consuming the test broker, and they took the next run's tasks (a flake)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _test_database_url() -> str:
    s = connection.settings_dict
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{s['NAME']}"


def purge_queues(broker_url: str) -> None:
    import redis

    client = redis.Redis.from_url(broker_url)
    try:
        for queue in settings.CELERY_TASK_QUEUES:
            client.delete(queue)
        client.delete("unacked", "unacked_index")
    finally:
        client.close()
    # A purged adjudication task never starts to give its "queued" key back, and while the key
    # lives a submission queues no task (games.records.queueing.enqueue_adjudication): give it back.
    from games.services import adjudication_schedule_release

    adjudication_schedule_release()


class WorkerProcess:
    def __init__(self, proc: subprocess.Popen, log: Path):
        self.proc = proc
        self.log = log

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def children(self) -> list[int]:
        try:
            out = subprocess.run(
                ["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True, check=False
            ).stdout
        except FileNotFoundError:
            return []
        return [int(pid) for pid in out.split()]

    def kill(self) -> None:
        """SIGKILL the whole worker: parent and pool children, like a machine dying."""
        for pid in [*self.children(), self.proc.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(transactional_db, tmp_path):
    """Start real `celery worker` processes; each is stopped after the test."""
    if not settings.CELERY_BROKER_URL:
        pytest.fail("integration tests need CELERY_BROKER_URL (make test sets it to Redis)")
    started: list[WorkerProcess] = []
    purge_queues(settings.CELERY_BROKER_URL)

    def start(
        *,
        broker_url: str | None = None,
        concurrency: int = 1,
        wait_ready: bool = True,
        **env_overrides: str,
    ) -> WorkerProcess:
        env = {
            **os.environ,
            "DEBUG": "1",
            "DATABASE_URL": _test_database_url(),
            "CELERY_BROKER_URL": broker_url or settings.CELERY_BROKER_URL,
            "PYTHONUNBUFFERED": "1",
            **{k: str(v) for k, v in env_overrides.items()},
        }
        log = tmp_path / f"worker-{len(started)}.log"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tantrix_site",
                "worker",  # without -Q: every queue in CELERY_TASK_QUEUES
                "--concurrency",
                str(concurrency),
                "--pool",
                "prefork",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"test{len(started)}-{os.getpid()}@%h",
            ],
            cwd=REPO,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_the_test_run,
        )
        worker = WorkerProcess(proc, log)
        started.append(worker)
        if wait_ready:
            deadline = time.monotonic() + 60
            while "ready." not in worker.output():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"celery worker did not start:\n{worker.output()}")
                time.sleep(0.2)
        return worker

    yield start
    for worker in started:
        worker.stop()


def wait_for(predicate, *, timeout: float = 30.0, interval: float = 0.1, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A Redis server of the test's own, so stopping it disturbs nothing else."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.dir = tmp_path
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--daemonize",
                "yes",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                "--logfile",
                str(self.dir / "redis.log"),
            ],
            check=True,
        )
        wait_for(self.answers, timeout=10, what=f"redis on port {self.port}")

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
            capture_output=True,
            check=False,
        )
        wait_for(lambda: not self.answers(), timeout=10, what="redis to stop")


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def start_process(transactional_db, tmp_path):
    """Start project processes (gunicorn, celery beat) against the test database."""
    started: list[subprocess.Popen] = []

    def start(argv: list[str], *, ready=None, **env_overrides: str) -> subprocess.Popen:
        env = {
            **os.environ,
            "DEBUG": "1",
            "DATABASE_URL": _test_database_url(),
            "PYTHONUNBUFFERED": "1",
            **{k: str(v) for k, v in env_overrides.items()},
        }
        log = tmp_path / f"process-{len(started)}.log"
        proc = subprocess.Popen(
            argv,
            cwd=REPO,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_the_test_run,
        )
        proc.log = log  # type: ignore[attr-defined]
        started.append(proc)
        if ready is not None:
            wait_for(ready, timeout=60, what=f"{argv[2:4]} to start:\n{log.read_text()}")
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def start_web(start_process, *, broker_url: str, **env) -> str:
    """gunicorn serving the project on a free port; returns its base URL."""
    import urllib.request

    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                return True
        except OSError as exc:
            return getattr(exc, "code", None) == 503

    start_process(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tantrix_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--timeout",
            "60",
        ],
        ready=answers,
        CELERY_BROKER_URL=broker_url,
        **env,
    )
    return base


def start_beat(
    start_process, tmp_path: Path, *, broker_url: str, sweep_seconds: float = 1.0, **env
):
    return start_process(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tantrix_site",
            "beat",
            "--loglevel",
            "INFO",
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        CELERY_BROKER_URL=broker_url,
        GAME_RECORD_SWEEP_SECONDS=str(sweep_seconds),
        **env,
    )
