"""Submission pipeline: self-play records posted to gunicorn, adjudicated by two Celery worker
processes on PostgreSQL and Redis.

Two phases, each of BENCH_PIPELINE_RECORDS (1,000) records: first posted as fast as the client
threads can (throughput at saturation: records/s from first post to last verdict; latency there
is mostly time queued behind the backlog), then at a steady offered load of half that rate (or
BENCH_PACED_RATE records/s), where the submission-to-verdict latency (median, 95th percentile)
is what a player sees while the system keeps up. Each phase ends when the ratings have taken
every game, and prints the CPU milliseconds per record of the web, worker, PostgreSQL and Redis
processes (bench/cpu.py).

Before its own figures it prints the same bench run on the pipeline as it stood before issue 17
(commit BENCH_PIPELINE_BEFORE, 7b3bf48: a task per record, 23 statements per record), served
from that commit's tree extracted with `git archive`, on the same machine in the same minutes.
BENCH_PIPELINE_BEFORE= (empty) skips it. BENCH_IDEMPOTENCY_KEYS=1 sends each post with an
Idempotency-Key of its own, so the idempotency middleware keeps every answer too."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.cpu import CpuMeter
from bench.scratch import REPO, percentile, scratch_database

RECORDS = int(os.environ.get("BENCH_PIPELINE_RECORDS", "1000"))
CLIENT_THREADS = int(os.environ.get("BENCH_CLIENT_THREADS", "8"))
WEB_WORKERS = os.environ.get("BENCH_WEB_WORKERS", "3")
WORKER_POOL = os.environ.get("BENCH_WORKER_POOL", "prefork")
# Latency is only meaningful below saturation: the second phase offers half the rate the first
# one reached (or BENCH_PACED_RATE records/s).
PACED_RATE = float(os.environ.get("BENCH_PACED_RATE", "0"))
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
PORT = int(os.environ.get("BENCH_PORT", "8765"))
BEFORE = os.environ.get("BENCH_PIPELINE_BEFORE", "7b3bf48")
# Each post with an Idempotency-Key of its own (BENCH_IDEMPOTENCY_KEYS=1), as careful clients
# send: the answer is then kept as well (docs/architecture.md, "Submissions").
IDEMPOTENCY_KEYS = os.environ.get("BENCH_IDEMPOTENCY_KEYS", "") not in ("", "0")


def _start(argv: list[str], env: dict, log_name: str) -> subprocess.Popen:
    log = open(f"/tmp/tantrix-bench-{log_name}.log", "wb")  # noqa: SIM115 - lives with the process
    return subprocess.Popen(argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)


def _wait_http(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"{url} did not answer")


def _token_for(user) -> str:
    """An API token in whichever way the tree being measured issues them: this bench also runs
    copied into the BEFORE commit's tree, which predates players.tokens (DRF's static tokens)."""
    try:
        from players.tokens.services import api_token_issue
    except ImportError:
        from rest_framework.authtoken.models import Token

        return Token.objects.create(user=user).key
    return api_token_issue(user=user).key


def main() -> None:
    with scratch_database("tantrix_bench_pipeline") as url:
        os.environ["DATABASE_URL"] = url
        os.environ["CELERY_BROKER_URL"] = BROKER
        os.environ.setdefault("DEBUG", "1")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        import redis
        from django.contrib.auth import get_user_model

        from games.engine import selfplay
        from players.models import Player

        admin = get_user_model().objects.create_user("bench", password="x", is_staff=True)
        token = _token_for(admin)
        names = [f"Bench{i:02d}" for i in range(20)]
        Player.objects.bulk_create(Player(display_name=n, country="DE") for n in names)
        bodies = []
        for seed in range(2 * RECORDS):
            record = selfplay(seed, "2")
            record["players"][0]["name"] = names[seed % 20]
            record["players"][1]["name"] = names[(seed + 1) % 20]
            bodies.append(json.dumps(record).encode())
        redis.Redis.from_url(BROKER).flushdb()

        # Production-like processes: DEBUG off (no query log), throttling out of the way.
        env = {
            **os.environ,
            "API_THROTTLE_USER": "1000000/minute",
            "LOG_LEVEL": "WARNING",
            "DEBUG": "0",
            "CACHE_URL": os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13"),
            "SECRET_KEY": "bench-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        processes = [
            _start(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tantrix_site",
                    "worker",
                    "--concurrency",
                    "1",
                    "--pool",
                    WORKER_POOL,
                    "--loglevel",
                    os.environ.get("BENCH_WORKER_LOGLEVEL", "WARNING"),
                    "-n",
                    f"bench{i}@%h",
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
                f"worker{i}",
            )
            for i in range(2)
        ]
        processes.append(
            _start(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "tantrix_site.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{PORT}",
                    "--workers",
                    WEB_WORKERS,
                    "--log-level",
                    "warning",
                ],
                env,
                "gunicorn",
            )
        )
        try:
            _wait_http(f"http://127.0.0.1:{PORT}/healthz")
            time.sleep(3)  # let the workers connect to the broker

            def post(body: bytes) -> int:
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
                headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
                if IDEMPOTENCY_KEYS:
                    headers["Idempotency-Key"] = uuid.uuid4().hex
                conn.request("POST", "/api/games/records/", body=body, headers=headers)
                response = conn.getresponse()
                data = json.loads(response.read())
                conn.close()
                if response.status != 202:
                    raise RuntimeError(f"submission answered {response.status}: {data}")
                return data["id"]

            meter = CpuMeter(
                web_roots=[processes[-1].pid], worker_roots=[p.pid for p in processes[:-1]]
            )
            saturated = _run_phase(post, bodies[:RECORDS], meter, rate=None)
            paced_rate = PACED_RATE or round(_throughput(saturated) / 2, 1)
            paced = _run_phase(post, bodies[RECORDS:], meter, rate=paced_rate)
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        print(
            f"pipeline: self-play records posted to gunicorn ({WEB_WORKERS} web workers), "
            f"2 Celery worker processes ({WORKER_POOL} pool), PostgreSQL + Redis"
            + (", each post with an Idempotency-Key" if IDEMPOTENCY_KEYS else "")
        )
        _report(f"as fast as {CLIENT_THREADS} client threads post ({RECORDS} records)", saturated)
        _report(f"steady offered load of {paced_rate} records/s ({RECORDS} records)", paced)


def _run_phase(post, bodies: list[bytes], meter: CpuMeter, *, rate: float | None) -> dict:
    """Post `bodies` (all at once, or `rate` per second), wait for every verdict and for the
    ratings to take every game, and read the CPU the processes used meanwhile."""
    from games.models import GameRecord
    from ratings.models import PendingRating

    cpu_before = meter.read()
    client_before = time.process_time()
    started = time.time()
    if rate is None:
        with ThreadPoolExecutor(CLIENT_THREADS) as pool:
            ids = list(pool.map(post, bodies))
    else:

        def paced(item: tuple[int, bytes]) -> int:
            index, body = item
            delay = started + index / rate - time.time()
            if delay > 0:
                time.sleep(delay)
            return post(body)

        with ThreadPoolExecutor(max(CLIENT_THREADS, 16)) as pool:
            ids = list(pool.map(paced, enumerate(bodies)))
    posted = time.time()
    while GameRecord.objects.filter(pk__in=ids, status__in=["pending", "processing"]).exists():
        time.sleep(0.2)
        if time.time() - started > 600:
            raise SystemExit("verdicts did not arrive within 10 minutes")
    rows = list(
        GameRecord.objects.filter(pk__in=ids).values_list("created", "adjudicated_at", "status")
    )
    # One claim stamps its records with one time: how many claims the workers made.
    claims = GameRecord.objects.filter(pk__in=ids).values("claimed_at").distinct().count()
    # The ratings apply in batches after the verdicts: their work is part of each record's cost.
    while PendingRating.objects.exists():
        time.sleep(0.2)
        if time.time() - started > 600:
            raise SystemExit("the ratings did not take the games within 10 minutes")
    rated = time.time()
    cpu_after = meter.read()
    cpu = {name: cpu_after[name] - cpu_before[name] for name in cpu_before}
    client = time.process_time() - client_before
    return {
        "rows": rows,
        "started": started,
        "posted": posted,
        "rated": rated,
        "cpu": cpu,
        "client": client,
        "claims": claims,
    }


def _throughput(phase: dict) -> float:
    last = max(adjudicated for _, adjudicated, _ in phase["rows"]).timestamp()
    return len(phase["rows"]) / (last - phase["started"])


def _report(title: str, phase: dict) -> None:
    rows, started, posted = phase["rows"], phase["started"], phase["posted"]
    last = max(adjudicated for _, adjudicated, _ in rows).timestamp()
    latencies = [(adjudicated - created).total_seconds() for created, adjudicated, _ in rows]
    valid = sum(1 for *_, status in rows if status == "valid")
    print(f"  {title}")
    print(f"    valid verdicts                 {valid}/{len(rows)}")
    print(
        f"    posting took                   {posted - started:.2f} s "
        f"({len(rows) / (posted - started):.0f} posts/s)"
    )
    print(
        f"    first post to last verdict     {last - started:.2f} s "
        f"= {len(rows) / (last - started):.0f} records/s"
    )
    print(
        f"    submission-to-verdict latency  median {statistics.median(latencies) * 1000:.0f}"
        f" ms, p95 {percentile(latencies, 0.95) * 1000:.0f} ms"
    )
    print(
        f"    records per claim              {len(rows) / phase['claims']:.1f}"
        f" ({phase['claims']} claims)"
    )
    rated = phase["rated"] - started
    print(f"    every game rated               {rated:.2f} s after the first post")
    cpu = {name: seconds * 1000 / len(rows) for name, seconds in phase["cpu"].items()}
    print(
        "    CPU per record                 "
        + ", ".join(f"{name} {ms:.1f} ms" for name, ms in cpu.items())
        + f" = {sum(cpu.values()):.1f} ms"
    )
    # The posting threads and the polling share the machine: shown apart, not in the total.
    client = phase["client"] * 1000 / len(rows)
    print(f"    CPU of this benchmark's client {client:.1f} ms per record")


def run_before() -> None:
    """This bench on the pipeline at BEFORE: that commit's tree, with this bench copied in."""
    if not BEFORE:
        return
    try:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", BEFORE], check=True, capture_output=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"before ({BEFORE}): not measured, its tree could not be read: {exc}")
        return
    with tempfile.TemporaryDirectory(prefix="tantrix-bench-before-") as directory:
        tree = Path(directory)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        shutil.rmtree(tree / "bench")
        skip = shutil.ignore_patterns("__pycache__")
        shutil.copytree(REPO / "bench", tree / "bench", ignore=skip)
        print(f"BEFORE: the pipeline at {BEFORE}, served from that commit's tree", flush=True)
        subprocess.run(
            [sys.executable, "-m", "bench.bench_pipeline"],
            cwd=tree,
            env={**os.environ, "BENCH_PIPELINE_BEFORE": ""},
            check=False,
        )
    print("AFTER: this tree", flush=True)


if __name__ == "__main__":
    run_before()
    main()
