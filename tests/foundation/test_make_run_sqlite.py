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
    # Quiet: a line per stage, the summary and the sign-ins; no per-task INFO lines (some 1,300
    # once) and no broker warning (kombu's "No hostname was supplied", eager Celery with no URL).
    # Not on a terminal, so no progress bar either.
    output = (loaded.stdout + loaded.stderr).splitlines()
    assert len(output) <= 15, "\n".join(output[:40])
    assert not [line for line in output if " INFO " in line or "WARNING" in line], output
    assert "Sign in with any of these (password: tantrix-demo):" in output
    assert output[-1].split()[0] in {"csilla", "tomas", "ingrid"}  # the sign-ins come last
    again = _manage("load_demo", "--url", "http://127.0.0.1:8001/", database=database)
    lines = (again.stdout + again.stderr).splitlines()
    # Every start ends with the sign-ins, also when the demo is already there.
    assert lines[0] == "The demo is already loaded."
    assert lines[1].startswith("Open http://127.0.0.1:8001/ and sign in")
    assert {"admin", "organiser"} <= {line.split()[0] for line in lines[2:]}
    assert len(lines) <= 6
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
    assert tables == 36  # three rounds of twelve tables typed from score sheets
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
