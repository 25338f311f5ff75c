"""`make bench`: every benchmark in turn, each in its own process, figures to stdout."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

BENCHMARKS = [
    ("rules engine", "bench.bench_engine"),
    ("re-adjudication on PostgreSQL", "bench.bench_readjudicate"),
    ("tournament formats (pure)", "bench.bench_formats"),
    ("tournaments on PostgreSQL", "bench.bench_tournaments_db"),
    ("rating maths (pure)", "bench.bench_ratings_math"),
    ("ratings recompute on PostgreSQL", "bench.bench_ratings_db"),
    ("submission pipeline", "bench.bench_pipeline"),
    ("public championship pages", "bench.bench_public_pages"),
    ("forecasts", "bench.bench_forecast"),
]


def main() -> int:
    only = set(sys.argv[1:])
    failed = []
    for title, module in BENCHMARKS:
        if only and module.rsplit(".", 1)[-1] not in only:
            continue
        print(f"\n=== {title} ({module}) ===", flush=True)
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-m", module], cwd=REPO, env=os.environ)
        print(f"--- {module}: {time.monotonic() - started:.1f} s", flush=True)
        if result.returncode:
            failed.append(module)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
