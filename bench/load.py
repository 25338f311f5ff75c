"""`make load`: the whole system under a locust load; figures per endpoint and for adjudication.

Seeds a scratch PostgreSQL database (players with accounts and API tokens, a history of rated
games, a published championship with a drawn, partly played knockout bracket), then starts what
a deployment runs, with DEBUG off: gunicorn, a Celery worker consuming every queue and one beat,
on PostgreSQL and Redis (broker and shared cache). Locust runs headless in its own process
(bench/locustfile.py): anonymous reads of public pages and API lists, and players posting their
own valid self-play records with their tokens (4:1 by default). Afterwards it waits (bounded)
until every submitted record has a verdict, prints requests/s, per-endpoint requests, failures
and p50/p95/p99 latency, records/s adjudicated and the submission-to-verdict latency, and scans
the server logs for errors and worker timeouts. Everything it started (processes, the scratch
database, its Redis databases) is stopped and removed on exit, Ctrl-C or error.

    python -m bench.load --users 20 --spawn-rate 5 --seconds 60 --web-workers 3 --workers 2

The broker and cache use Redis databases 12 and 13 on the host of CELERY_BROKER_URL (the test
suite uses 15, bench_pipeline 14); --broker-db and --cache-db choose others.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from bench.load_report import report, versions_line
from bench.scratch import REPO, scratch_database


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.split("\n")[0]
    )
    add = parser.add_argument
    add("--users", type=int, default=20, help="simulated users (default 20)")
    add("--spawn-rate", type=float, default=5, help="users started per second (default 5)")
    add("--seconds", type=int, default=60, help="length of the load (default 60)")
    add("--web-workers", type=int, default=3, help="gunicorn sync workers (default 3)")
    add("--workers", type=int, default=2, help="Celery worker concurrency, prefork (default 2)")
    add("--wait-min", type=float, default=0.5, help="least think time between requests, s")
    add("--wait-max", type=float, default=1.5, help="most think time between requests, s")
    add("--browse-weight", type=int, default=4, help="weight of a public read (default 4)")
    add("--submit-weight", type=int, default=1, help="weight of a submission (default 1)")
    add("--players", type=int, default=64, help="seeded players with accounts (default 64)")
    add("--games", type=int, default=300, help="seeded rated games (default 300)")
    add("--entries", type=int, default=32, help="entries in the seeded knockout (default 32)")
    add("--pool", type=int, default=500, help="distinct self-play games to submit (default 500)")
    add("--port", type=int, default=8766, help="gunicorn port on 127.0.0.1 (default 8766)")
    add("--broker-db", type=int, default=12, help="Redis database for the broker (default 12)")
    add("--cache-db", type=int, default=13, help="Redis database for CACHE_URL (default 13)")
    add("--verdict-timeout", type=int, default=300, help="longest wait for verdicts, s")
    add(
        "--keep-throttles",
        action="store_true",
        help="keep the API throttle defaults (every locust user shares one address, so the "
        "anonymous limit of 120/minute would otherwise answer most API reads with 429)",
    )
    add("--logs", type=Path, default=None, help="directory for logs and CSV (default: a tmp dir)")
    args = parser.parse_args(argv)
    if args.users < 1 or args.seconds < 1 or args.web_workers < 1 or args.workers < 1:
        parser.error("--users, --seconds, --web-workers and --workers must be at least 1")
    if args.players < 2 or args.entries < 2:
        parser.error("--players and --entries must be at least 2")
    if not 0 <= args.wait_min <= args.wait_max:
        parser.error("need 0 <= --wait-min <= --wait-max")
    if args.broker_db == args.cache_db or {args.broker_db, args.cache_db} & {14, 15}:
        parser.error("--broker-db and --cache-db must differ, and not be 14/15 (bench, tests)")
    return args


def _redis_url(db: int) -> str:
    base = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    return urlunparse(urlparse(base)._replace(path=f"/{db}"))


class Processes:
    """Child processes, each in its own session so a Ctrl-C reaches only us, and we stop them in
    order; a process group is killed whole (gunicorn's and Celery's own children with it)."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - lives with the process
        process = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()  # the child holds its own descriptor
        self.running.append((name, process))
        return process

    def stop_all(self) -> None:
        for _, process in reversed(self.running):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for name, process in reversed(self.running):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                print(f"  {name} did not stop in 20 s: killed", flush=True)
            # Whatever is left in the group (a prefork child, a gunicorn worker) goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
        self.running.clear()

    def check_alive(self) -> None:
        for name, process in self.running:
            if name != "locust" and process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}: see {name}.log")


def _wait_http(url: str, processes: Processes, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes.check_alive()
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer 200 within {timeout:.0f} s")


def _wait_worker(broker: str, processes: Processes, timeout: float = 90) -> None:
    from celery import Celery

    app = Celery("tantrix-load-ping", broker=broker)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            processes.check_alive()
            if app.control.ping(timeout=1.0):
                return
        raise RuntimeError(f"the Celery worker did not answer a ping within {timeout:.0f} s")
    finally:
        app.close()


def _flush(*urls: str) -> None:
    import redis

    for url in urls:
        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()


def _interrupt(signum, frame) -> None:
    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop the processes and drop the database.
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # the seeding's eager tasks log at INFO
    logs = args.logs or Path(tempfile.mkdtemp(prefix="tantrix-load-"))
    logs.mkdir(parents=True, exist_ok=True)
    broker, cache = _redis_url(args.broker_db), _redis_url(args.cache_db)
    data_file = logs / "load-data.json"
    try:
        with scratch_database("tantrix_load") as database_url:
            return _run(args, logs, database_url, broker, cache, data_file)
    except KeyboardInterrupt:
        print("\ninterrupted: everything started was stopped and the scratch database dropped")
        return 130
    finally:
        data_file.unlink(missing_ok=True)  # tokens and the record pool; the logs stay
        print(f"logs (gunicorn, worker, beat, locust) and locust-result.json: {logs}")


def _run(args, logs: Path, database_url: str, broker: str, cache: str, data_file: Path) -> int:
    # This process seeds with Celery eager (every seeded record adjudicated and rated at once)
    # and afterwards only reads the database; the system under test gets the real broker.
    os.environ["DATABASE_URL"] = database_url
    os.environ["CELERY_BROKER_URL"] = ""
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
    import django

    django.setup()
    from django.db import connections

    from bench.load_seed import seed
    from games.models import GameRecord

    started = time.monotonic()
    print(
        f"seeding: {args.players} players with tokens, {args.games} rated games, a knockout of "
        f"{args.entries}, {args.pool} self-play records to submit",
        flush=True,
    )
    data = seed(players=args.players, games=args.games, entries=args.entries, pool=args.pool)
    data_file.write_text(json.dumps(data))
    last_seeded = GameRecord.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    versions = versions_line(cache)
    # The machine may be shared: the load average before our system starts says how much.
    versions += f"; load average before the run {os.getloadavg()[0]:.2f}"
    connections.close_all()
    print(f"  seeded in {time.monotonic() - started:.1f} s", flush=True)

    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CACHE_URL": cache,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    if not args.keep_throttles:
        env["API_THROTTLE_ANON"] = env["API_THROTTLE_USER"] = "1000000/minute"
    _flush(broker, cache)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
    )

    processes = Processes(logs)
    signal_default = signal.getsignal(signal.SIGINT)
    try:
        _start_system(args, processes, env, logs)
        base = f"http://127.0.0.1:{args.port}"
        _wait_http(f"{base}/healthz", processes)
        _wait_worker(broker, processes)
        print(
            f"system up: gunicorn ({args.web_workers} workers) on {base}, Celery worker "
            f"(concurrency {args.workers}, every queue) and beat, DEBUG=0",
            flush=True,
        )
        database = urlparse(database_url).path.lstrip("/")
        meter = CpuMeter(processes, database)
        load = _run_locust(args, processes, env, logs, base, data_file, meter)
        verdicts = _wait_verdicts(last_seeded, args.verdict_timeout, processes, meter)
        meter.sample()
        load["cpu"] = {**meter.totals(), "locust": load["locust_cpu"]}
        load["cpu_wall"] = time.time() - load["started"]
        load["load_average"] = os.getloadavg()[0]
        # What the servers logged under load; their shutdown messages come after this.
        load["log_sizes"] = {
            path.stem: path.stat().st_size for path in logs.glob("*.log") if path.is_file()
        }
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not stop the cleanup
        print("stopping the system", flush=True)
        processes.stop_all()
        with contextlib.suppress(Exception):
            _flush(broker, cache)
        connections.close_all()
        signal.signal(signal.SIGINT, signal_default)
    return report(args, load, verdicts, logs, versions)


def _start_system(args, processes: Processes, env: dict[str, str], logs: Path) -> None:
    celery = [sys.executable, "-m", "celery", "-A", "tantrix_site"]
    processes.start(
        "worker",
        [
            *celery,
            "worker",
            "--concurrency",
            str(args.workers),
            "--pool",
            "prefork",
            "--loglevel",
            "WARNING",
            "-n",
            f"load{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        env,
    )
    processes.start(
        "beat",
        [*celery, "beat", "--loglevel", "WARNING", "--schedule", str(logs / "celerybeat-schedule")],
        env,
    )
    processes.start(
        "gunicorn",
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tantrix_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.web_workers),
            "--timeout",
            "30",
            "--log-level",
            "warning",
        ],
        env,
    )


class CpuMeter:
    """CPU seconds (user + system) used by each started process with its children, and by the
    PostgreSQL backends serving the scratch database, from the first sample on.

    Sampled every half second while we wait, so a process that exits in between (a database
    connection past its maximum age) keeps what it used up to its last sample."""

    def __init__(self, processes: Processes, database: str) -> None:
        self.processes = processes
        self.database = database
        self.baseline: dict[int, float] = {}
        self.latest: dict[int, tuple[str, float]] = {}
        self.sample(baseline=True)

    def sample(self, *, baseline: bool = False) -> None:
        import psutil

        found: list[tuple[str, psutil.Process]] = []
        for name, started in self.processes.running:
            if name == "locust":
                continue  # reaped at its end; measured from our children's usage instead
            try:
                root = psutil.Process(started.pid)
                found += [(name, p) for p in [root, *root.children(recursive=True)]]
            except psutil.NoSuchProcess:
                continue
        for process in psutil.process_iter(["cmdline"]):
            title = " ".join(process.info["cmdline"] or [])
            if title.startswith("postgres:") and f" {self.database} " in title:
                found.append(("postgres", process))
        for name, process in found:
            try:
                times = process.cpu_times()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if baseline:
                self.baseline[process.pid] = times.user + times.system
            self.latest[process.pid] = (name, times.user + times.system)

    def totals(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for pid, (name, used) in self.latest.items():
            totals[name] = totals.get(name, 0.0) + used - self.baseline.get(pid, 0.0)
        return totals


def _run_locust(
    args, processes, env, logs: Path, base: str, data_file: Path, meter: CpuMeter
) -> dict:
    print(
        f"load: {args.users} users (spawn {args.spawn_rate}/s) for {args.seconds} s, think time "
        f"{args.wait_min}-{args.wait_max} s, read:submit {args.browse_weight}:{args.submit_weight}",
        flush=True,
    )
    locust_env = {
        **env,
        "TANTRIX_LOAD_DATA": str(data_file),
        "TANTRIX_LOAD_RESULT": str(logs / "locust-result.json"),
        "TANTRIX_LOAD_BROWSE_WEIGHT": str(args.browse_weight),
        "TANTRIX_LOAD_SUBMIT_WEIGHT": str(args.submit_weight),
        "TANTRIX_LOAD_WAIT_MIN": str(args.wait_min),
        "TANTRIX_LOAD_WAIT_MAX": str(args.wait_max),
    }
    started = time.time()
    # locust is reaped when it ends, so its CPU time is read from our children's usage.
    reaped_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    locust = processes.start(
        "locust",
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(REPO / "bench" / "locustfile.py"),
            "--headless",
            "--users",
            str(args.users),
            "--spawn-rate",
            str(args.spawn_rate),
            "--run-time",
            f"{args.seconds}s",
            "--stop-timeout",
            "10",
            "--host",
            base,
            "--only-summary",
        ],
        locust_env,
    )
    deadline = time.monotonic() + args.seconds + 120
    while locust.poll() is None:
        if time.monotonic() > deadline:
            raise RuntimeError("locust did not finish within its run time + 120 s")
        processes.check_alive()
        meter.sample()
        time.sleep(0.5)
    ended = time.time()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    locust_cpu = (reaped.ru_utime - reaped_before.ru_utime) + (
        reaped.ru_stime - reaped_before.ru_stime
    )
    if not (logs / "locust-result.json").exists():
        raise RuntimeError(f"locust exited with {locust.returncode} and no figures: see locust.log")
    return {"started": started, "ended": ended, "locust_cpu": locust_cpu}


def _wait_verdicts(last_seeded: int, timeout: int, processes, meter: CpuMeter) -> dict:
    from django.db.models import Max

    from games.models import GameRecord, RecordStatus
    from ratings.models import ChangeReason, PendingRating, RatingChange

    submitted = GameRecord.objects.filter(pk__gt=last_seeded)
    open_statuses = [RecordStatus.PENDING, RecordStatus.PROCESSING]
    deadline = time.monotonic() + timeout
    waiting = submitted.filter(status__in=open_statuses).count()
    if waiting:
        print(f"waiting for {waiting} verdicts (at most {timeout} s)", flush=True)
    while waiting and time.monotonic() < deadline:
        processes.check_alive()
        meter.sample()
        time.sleep(0.5)
        waiting = submitted.filter(status__in=open_statuses).count()
    # The ratings follow the verdicts; wait for them too, within the same bound.
    while PendingRating.objects.exists() and time.monotonic() < deadline:
        meter.sample()
        time.sleep(0.5)
    rows = list(submitted.values_list("created", "adjudicated_at", "status"))
    # A game is rated when its last table has written its change.
    rated = (
        RatingChange.objects.filter(reason=ChangeReason.GAME, game__record_id__gt=last_seeded)
        .values("game_id", "game__record__created")
        .annotate(at=Max("created"))
    )
    return {
        "rows": rows,
        "waiting": waiting,
        "unrated": PendingRating.objects.count(),
        "rated": [(row["at"] - row["game__record__created"]).total_seconds() for row in rated],
    }


if __name__ == "__main__":
    sys.exit(main())
