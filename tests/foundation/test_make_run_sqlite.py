"""`make run`'s zero-setup path: SQLite, tasks eager, the small demo. PostgreSQL-only SQL
(advisory locks, DISTINCT ON) once slipped into it and every submission failed there, logged
and swallowed by the eager task, while the suite on PostgreSQL stayed green."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


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


def test_the_demo_on_sqlite_adjudicates_counts_and_rates(tmp_path):
    database = tmp_path / "db.sqlite3"
    assert _manage("migrate", "--noinput", "-v", "0", database=database).returncode == 0
    seeded = _manage("seed_demo", database=database)
    assert seeded.returncode == 0, seeded.stderr
    assert "Traceback" not in seeded.stderr, seeded.stderr[-3000:]
    with sqlite3.connect(database) as db:
        statuses = dict(db.execute("SELECT status, count(*) FROM games_gamerecord GROUP BY 1"))
        games = db.execute("SELECT count(*) FROM games_game").fetchone()[0]
        counted = db.execute("SELECT count(*) FROM tournaments_matchgame").fetchone()[0]
        rated = db.execute(
            "SELECT count(DISTINCT player_id) FROM ratings_rating WHERE system = 'lobby'"
        ).fetchone()[0]
        doubles = db.execute(
            "SELECT count(DISTINCT player_id) FROM ratings_rating WHERE system = 'doubles'"
        ).fetchone()[0]
    # 12 casual games, 2 knockout games, a doubles game and a team match's board game.
    assert statuses == {"valid": 16}
    assert games == 16 and counted == 4
    assert rated == 16
    assert doubles == 4  # the pairs game is rated in the doubles table
