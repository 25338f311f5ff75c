"""The figures `make load` prints: locust's per-endpoint results, the adjudication and rating
latencies from the database, the CPU used, and the errors in the servers' logs."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import statistics
from collections import Counter
from pathlib import Path

from bench.scratch import percentile

LOG_ERRORS = (" ERROR ", "[ERROR]", " CRITICAL ", "[CRITICAL]")


def _machine() -> str:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB RAM"
    cpus = f"{os.cpu_count()} CPUs ({model or platform.machine()})"
    return f"{cpus}{memory}, Python {platform.python_version()}"


def versions_line(cache_url: str) -> str:
    """PostgreSQL's and Redis's versions, as the report names them."""
    import redis
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0].split()[0]
    client = redis.Redis.from_url(cache_url)
    version = client.info("server").get("redis_version", "?")
    client.close()
    return f"PostgreSQL {postgres}, Redis {version}"


def _read_result(logs: Path) -> dict:
    result = json.loads((logs / "locust-result.json").read_text())
    result["endpoints"].sort(key=lambda row: (row["name"], row["method"]))
    return result


def _scan_logs(logs: Path, sizes: dict[str, int]) -> list[str]:
    """Errors, worker timeouts and the exceptions of tracebacks in the servers' logs, counted."""
    findings = []
    for name in ("gunicorn", "worker", "beat"):
        path = logs / f"{name}.log"
        if not path.exists():
            continue
        with path.open("rb") as handle:
            lines = handle.read(sizes.get(name, 0)).decode(errors="replace").splitlines()
        timeouts = sum("WORKER TIMEOUT" in line for line in lines)
        errors: Counter[str] = Counter()
        exceptions: Counter[str] = Counter()
        in_traceback = False
        for line in lines:
            if any(mark in line for mark in LOG_ERRORS):
                # Without the timestamp and with ids as N, one line per kind of error.
                errors[re.sub(r"\d+", "N", line.split(" ", 2)[-1])[:140]] += 1
            if line.startswith("Traceback"):
                in_traceback = True
            elif in_traceback and line and not line.startswith(" "):
                exceptions[line[:140]] += 1
                in_traceback = False
        if errors or timeouts or exceptions:
            findings.append(
                f"{name}.log: {sum(errors.values())} error lines, {timeouts} worker timeouts, "
                f"{sum(exceptions.values())} tracebacks"
            )
            for text, count in [*errors.most_common(5), *exceptions.most_common(5)]:
                findings.append(f"  {count:>5} x {text}")
    return findings


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def report(args: argparse.Namespace, load: dict, verdicts: dict, logs: Path, versions: str) -> int:
    """Print every figure; 0 when nothing failed, 1 on failures, missing verdicts or errors."""
    result = _read_result(logs)
    total, failures = result["total"], result["errors"]
    elapsed = load["ended"] - load["started"]
    requests, failed = total["requests"], total["failures"]
    print()
    print(f"machine: {_machine()}; {versions}")
    print(
        f"settings: {args.users} users, spawn {args.spawn_rate}/s, {args.seconds} s, think "
        f"{args.wait_min}-{args.wait_max} s, read:submit {args.browse_weight}:"
        f"{args.submit_weight}; gunicorn {args.web_workers} sync workers; Celery worker "
        f"concurrency {args.workers} (prefork) + beat; throttles "
        f"{'kept' if args.keep_throttles else 'lifted'}"
    )
    print(
        f"requests: {requests} = {total['rps']:.1f} req/s over locust's run "
        f"({elapsed:.1f} s with start-up and stop); failures {failed}"
    )
    print(f"  {'endpoint':<38} {'reqs':>6} {'fails':>6} {'p50':>6} {'p95':>6} {'p99':>6}  ms")
    for row in [*result["endpoints"], {**total, "name": "all requests"}]:
        label = f"{row['method']} {row['name']}".strip()
        print(
            f"  {label:<38} {row['requests']:>6} {row['failures']:>6} "
            f"{_ms(row['p50']):>6} {_ms(row['p95']):>6} {_ms(row['p99']):>6}"
        )
    if failures:
        print("failures:")
        for row in sorted(failures, key=lambda r: -r["occurrences"]):
            where = f"{row['method']} {row['name']}"
            print(f"  {row['occurrences']:>5} x {where}: {row['error'][:150]}")

    rows = verdicts["rows"]
    done = [(c, a, s) for c, a, s in rows if a is not None]
    by_status: dict[str, int] = {}
    for *_, status in rows:
        by_status[status] = by_status.get(status, 0) + 1
    print(
        f"records: {len(rows)} stored from submissions; "
        + ", ".join(f"{count} {status}" for status, count in sorted(by_status.items()))
    )
    if done:
        first = min(created for created, _, _ in done).timestamp()
        last = max(adjudicated for _, adjudicated, _ in done).timestamp()
        latencies = [(a - c).total_seconds() for c, a, _ in done]
        span = max(last - first, 1e-9)
        backlog = last - load["ended"]
        print(
            f"  adjudicated {len(done)} in {span:.1f} s from first submission to last verdict "
            f"= {len(done) / span:.1f} records/s; "
            + (
                f"the last verdict came {backlog:.1f} s after locust stopped (a backlog)"
                if backlog > 0
                else "no backlog when locust stopped (this is the offered rate)"
            )
        )
        print(
            f"  submission-to-verdict: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms"
        )
    if verdicts["waiting"]:
        print(f"  NO VERDICT after {args.verdict_timeout} s: {verdicts['waiting']} records")
    rated = verdicts["rated"]
    if rated:
        print(
            f"  ratings: {len(rated)} of {by_status.get('valid', 0)} valid games rated; "
            f"submission-to-rated median {statistics.median(rated) * 1000:.0f} ms, "
            f"p95 {percentile(rated, 0.95) * 1000:.0f} ms"
        )
    if verdicts["unrated"]:
        print(f"  ratings: {verdicts['unrated']} games still waiting to be rated at the end")
    cpu = ", ".join(f"{name} {used:.1f}" for name, used in load["cpu"].items())
    print(
        f"CPU seconds from locust's start to the end of the verdict wait "
        f"({load['cpu_wall']:.0f} s wall, {os.cpu_count()} CPUs): {cpu}; "
        f"load average at the end {load['load_average']:.2f}"
    )
    findings = _scan_logs(logs, load["log_sizes"])
    print("server logs: " + ("no errors, no worker timeouts" if not findings else ""))
    for line in findings:
        print(f"  {line}")
    healthy = not failed and not verdicts["waiting"] and not findings
    if not healthy:
        print("RESULT: problems under load (failures, missing verdicts or server errors above)")
    return 0 if healthy else 1
