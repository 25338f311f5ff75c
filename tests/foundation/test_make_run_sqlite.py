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
    """`make run` loads the living demo (`load_demo`); here a smaller one through the same code."""
    database = tmp_path / "db.sqlite3"
    assert _manage("migrate", "--noinput", "-v", "0", database=database).returncode == 0
    loaded = _manage(
        "load_demo", "--world-entrants", "24", "--casual-games", "10", database=database
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "Traceback" not in loaded.stderr, loaded.stderr[-3000:]
    with sqlite3.connect(database) as db:
        statuses = dict(db.execute("SELECT status, count(*) FROM games_gamerecord GROUP BY 1"))
        games = db.execute("SELECT count(*) FROM games_game").fetchone()[0]
        counted = db.execute("SELECT count(*) FROM tournaments_matchgame").fetchone()[0]
        rated = dict(
            db.execute(
                "SELECT system, count(DISTINCT player_id) FROM ratings_rating GROUP BY system"
            )
        )
        championships = db.execute("SELECT count(*) FROM tournaments_championship").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM tournaments_tableresult").fetchone()[0]
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
    # Every self-played record is valid and a game; the tournament ones counted in their matches.
    assert set(statuses) == {"valid"} and statuses["valid"] == games > 100
    assert counted > 80
    assert rated["lobby"] >= 24 and rated["doubles"] >= 4  # the pairs games rated apart
    # World, junior, the online open with its doubles, the team cup and the table open.
    assert championships == 5
    assert tables == 24  # three rounds of eight tables typed from score sheets
    assert journal == "wal"  # commits without an fsync each (tantrix_site.env)


def test_a_name_with_a_capital_beyond_ascii_is_found_on_sqlite(tmp_path):
    """SQLite's LOWER folds ASCII only: "Ayşe Şahin" lowered in Python ("ayşe şahin") never met
    LOWER("Ayşe Şahin") ("ayşe Şahin"), so a record naming her was refused as an unknown player
    on make run's database (found loading a demo with Turkish and Czech names)."""
    database = tmp_path / "db.sqlite3"
    assert _manage("migrate", "--noinput", "-v", "0", database=database).returncode == 0
    found = _manage(
        "shell",
        "-c",
        "from players.models import Player; from players.selectors import players_by_names; "
        "Player.objects.create(display_name='Ayşe Şahin', country='TR'); "
        "Player.objects.create(display_name='Tomáš Černý', country='CZ'); "
        "print(sorted(players_by_names(['Ayşe Şahin', 'tomáš černý', 'Tomáš Černý'])))",
        database=database,
    )
    assert found.returncode == 0, found.stderr[-3000:]
    assert found.stdout.strip().splitlines()[-1] == "['ayşe şahin', 'tomáš černý']"
