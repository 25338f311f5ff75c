"""A scratch PostgreSQL database for a benchmark, created fresh and dropped afterwards."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

REPO = Path(__file__).resolve().parent.parent


def _admin_connection(url: str):
    import psycopg

    parsed = urlparse(url)
    return psycopg.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password or None,
        dbname="postgres",
        autocommit=True,
    )


@contextlib.contextmanager
def scratch_database(name: str) -> Iterator[str]:
    """Yield a DATABASE_URL for a freshly migrated database `name` on the configured server."""
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tantrix")
    if not base.startswith("postgres"):
        raise SystemExit("benchmarks need PostgreSQL: set DATABASE_URL=postgres://...")
    name = f"{name}_{os.getpid()}"  # two benchmark runs side by side never share one
    url = urlunparse(urlparse(base)._replace(path=f"/{name}"))
    with _admin_connection(base) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        env = {**os.environ, "DATABASE_URL": url, "DEBUG": os.environ.get("DEBUG", "1")}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=REPO,
            env=env,
            check=True,
        )
        yield url
    finally:
        with _admin_connection(base) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]
