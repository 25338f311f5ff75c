"""The demo is consistent: `check_consistency` on a freshly loaded demo exits 0.

The demo has every kind of result the site makes (group tables, a knockout in progress,
juniors, a Swiss, doubles, a team cup, a table open with typed sheets and drawn tables), so a
check that calls any of them a breach, or a demo that breaks an invariant, fails here. Loaded
with the smallest sizes `load_demo` allows, on PostgreSQL (in this process, with the results
adjudicated after commit as in `make run`) and on SQLite (`make run`'s own database, through
`manage.py` as a person runs it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments.demo import load_demo
from tournaments.models import TableResult

REPO = Path(__file__).resolve().parents[2]
SMALLEST = {"world_entrants": 12, "casual_games": 0}  # load_demo's options allow no less


@pytest.mark.django_db(transaction=True)
def test_the_demo_is_consistent_on_postgresql():
    assert load_demo(**SMALLEST) is not None
    assert TableResult.objects.exists()  # the table open's typed sheets are checked too
    out = StringIO()
    call_command("check_consistency", stdout=out)  # a breach raises CommandError (exit 1)
    assert out.getvalue().startswith("consistent:"), out.getvalue()


def _manage(*args: str, database: Path) -> subprocess.CompletedProcess:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"}
    }
    environment.update(DEBUG="1", DATABASE_URL=f"sqlite:///{database}")
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_demo_is_consistent_on_sqlite(tmp_path):
    database = tmp_path / "db.sqlite3"
    assert _manage("migrate", "--noinput", "-v", "0", database=database).returncode == 0
    loaded = _manage(
        "load_demo",
        "--world-entrants",
        str(SMALLEST["world_entrants"]),
        "--casual-games",
        str(SMALLEST["casual_games"]),
        database=database,
    )
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    checked = _manage("check_consistency", database=database)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    assert checked.stdout.strip().splitlines()[-1].startswith("consistent:")
