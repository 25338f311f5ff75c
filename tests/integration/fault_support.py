"""Helpers for the fault-injection tests (tests/integration/test_faults.py).

A private PostgreSQL cluster the test may stop and start, a burst of HTTP submissions, a log of
every verdict the database commits (a trigger, so "written once" is observed, not inferred), the
exactly-once checks as plain SQL, and `check_consistency` run against any database.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.games.helpers import as_body, selfplay_record
from tests.integration.conftest import REPO, free_port, wait_for

NAMES = ("Ingrid", "Tomas", "Csilla", "Bela")
# The record a kept first answer names (tantrix_site/idempotency): its body is the JSON the
# submission was answered with, 202 {"id": ...} or a refusal {"submission": {"id": ...}}.
ANSWER_RECORD_ID = """
    COALESCE(convert_from(a.body, 'UTF8')::jsonb ->> 'id',
             convert_from(a.body, 'UTF8')::jsonb -> 'submission' ->> 'id')::bigint
"""
PAIRS = [(a, b) for a in NAMES for b in NAMES if a != b]


def record_bodies(count: int, *, first_seed: int = 0) -> list[bytes]:
    """``count`` valid two-player records between the four players of ``NAMES``, each a game of
    its own: the same game sent twice is one game (games/reports meet records by their
    fingerprint), so a cycled body would make one Game for several records. A second burst in
    one test starts at another ``first_seed``."""
    seeds = range(first_seed, first_seed + count)
    return [as_body(selfplay_record(seed, list(PAIRS[seed % len(PAIRS)]))) for seed in seeds]


# --- A PostgreSQL cluster of the test's own ------------------------------------------------


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/{name})")
    return found[-1]


class PrivatePostgres:
    """A throw-away PostgreSQL cluster on a free port, run as the `postgres` OS user.

    initdb refuses to run as root, and the `postgres` user cannot enter pytest's tmp_path (under
    a root-only directory), so the cluster lives in a directory of its own under /tmp, removed
    when the test ends. fsync is off: the test restarts the server, it never crashes the machine.
    """

    def __init__(self, name: str = "tantrix_faults"):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tantrix-faults-pg-"))
        self.data = self.dir / "data"
        self.name = name
        self.token = ""  # the submitter's API token, once seeded
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/{name}"
        self.dsn = f"host=127.0.0.1 port={self.port} user=postgres dbname={name}"
        shutil.chown(self.dir, user="postgres")

    def _as_postgres(self, *argv: str, timeout: float = 60) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *argv],
            check=True,
            capture_output=True,
            timeout=timeout,
        )

    def init(self) -> None:
        self._as_postgres(
            _pg_bin("initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self.start()
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def _ctl(self, *argv: str) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        self._as_postgres(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.dir / "server.log"),
            "-o",
            options,
            "-w",
            *argv,
        )

    def start(self) -> None:
        self._ctl("start")
        wait_for(self.answers, timeout=30, what=f"PostgreSQL on port {self.port}")

    def stop(self) -> None:
        """Fast shutdown: open sessions are terminated, transactions in flight roll back."""
        self._ctl("-m", "fast", "stop")

    def answers(self) -> bool:
        try:
            with psycopg.connect(
                f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", connect_timeout=2
            ):
                return True
        except psycopg.OperationalError:
            return False

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.SubprocessError):
                self._ctl("-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def manage(database_url: str, *argv: str, env: dict | None = None, timeout: float = 120):
    """Run ``manage.py`` against a database (a separate process: its own settings)."""
    return subprocess.run(
        [sys.executable, "manage.py", *argv],
        cwd=REPO,
        env={**os.environ, "DEBUG": "1", "DATABASE_URL": database_url, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


SEED_SCRIPT = """
from django.contrib.auth import get_user_model
from players.tokens.services import api_token_issue
from players.models import Player
User = get_user_model()
admin = User.objects.create_user("faults-admin", is_staff=True, is_superuser=True)
for name in {names!r}:
    Player.objects.create(display_name=name, country="DE")
print("TOKEN=" + api_token_issue(user=admin).key)
"""


def seed_players(database_url: str) -> str:
    """The four players of ``NAMES`` and a staff submitter; returns the submitter's API token."""
    done = manage(database_url, "shell", "-c", SEED_SCRIPT.format(names=NAMES))
    assert done.returncode == 0, done.stderr
    return next(
        line[len("TOKEN=") :] for line in done.stdout.splitlines() if line.startswith("TOKEN=")
    )


# --- Submissions -------------------------------------------------------------------------------


@dataclass
class Outcome:
    key: str
    status: int | None = None  # HTTP status, None when no answer came (connection refused...)
    error: str = ""
    record_id: int | None = None
    answered_at: float = 0.0


@dataclass
class Burst:
    """Submissions posted to gunicorn by a few client threads, each with its Idempotency-Key."""

    base_url: str
    token: str
    bodies: Sequence[bytes]
    threads: int = 4
    prefix: str = "burst"
    outcomes: list[Outcome] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def post(self, index: int) -> Outcome:
        outcome = Outcome(key=f"{self.prefix}-{index}")
        request = urllib.request.Request(
            f"{self.base_url}/api/games/records/",
            data=self.bodies[index],
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": outcome.key,
            },
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                outcome.status = response.status
                outcome.record_id = json.loads(response.read())["id"]
        except urllib.error.HTTPError as exc:
            outcome.status = exc.code
        except OSError as exc:  # refused, reset, timed out: no answer
            outcome.error = type(exc).__name__
        outcome.answered_at = time.monotonic()
        with self._lock:
            self.outcomes.append(outcome)
        return outcome

    def run_in_background(self) -> ThreadPoolExecutor:
        pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix=self.prefix)
        for index in range(len(self.bodies)):
            pool.submit(self.post, index)
        pool.shutdown(wait=False)
        return pool

    def answered(self) -> list[Outcome]:
        with self._lock:
            return list(self.outcomes)

    def accepted(self) -> list[Outcome]:
        return [o for o in self.answered() if o.status == 202]

    def failed(self) -> list[Outcome]:
        return [o for o in self.answered() if o.status != 202]

    def done(self) -> bool:
        return len(self.answered()) == len(self.bodies)


# --- What the database says ------------------------------------------------------------------

VERDICT_LOG = """
CREATE TABLE IF NOT EXISTS fault_verdict_log (
    record_id bigint NOT NULL, status text NOT NULL, at timestamptz DEFAULT clock_timestamp()
);
CREATE OR REPLACE FUNCTION fault_log_verdict() RETURNS trigger AS $$
BEGIN
    IF NEW.status IN ('valid', 'invalid') AND (
        TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.verdict IS DISTINCT FROM NEW.verdict
    ) THEN
        INSERT INTO fault_verdict_log (record_id, status) VALUES (NEW.id, NEW.status);
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS fault_log_verdict ON games_gamerecord;
CREATE TRIGGER fault_log_verdict AFTER INSERT OR UPDATE ON games_gamerecord
    FOR EACH ROW EXECUTE FUNCTION fault_log_verdict();
"""

DROP_VERDICT_LOG = """
DROP TRIGGER IF EXISTS fault_log_verdict ON games_gamerecord;
DROP FUNCTION IF EXISTS fault_log_verdict();
DROP TABLE IF EXISTS fault_verdict_log;
"""


def install_verdict_log(dsn: str) -> None:
    """Log every committed verdict write (insert or update to a final status, or a changed
    verdict): a record adjudicated twice shows up twice, whatever the code believed."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(VERDICT_LOG)


def drop_verdict_log(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(DROP_VERDICT_LOG)


class Ledger:
    """Plain-SQL reads of the pipeline's state, usable on any database of the project."""

    def __init__(self, dsn: str):
        self.dsn = dsn

    def _rows(self, sql: str, params: Sequence = ()) -> list[tuple]:
        with psycopg.connect(self.dsn, connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()

    def _one(self, sql: str, params: Sequence = ()):
        return self._rows(sql, params)[0][0]

    def records(self) -> int:
        return self._one("SELECT count(*) FROM games_gamerecord")

    def unfinished(self) -> int:
        return self._one(
            "SELECT count(*) FROM games_gamerecord WHERE status IN ('pending', 'processing')"
        )

    def final(self) -> int:
        return self._one(
            "SELECT count(*) FROM games_gamerecord WHERE status IN ('valid', 'invalid')"
        )

    def processing(self) -> list[int]:
        return [
            row[0]
            for row in self._rows(
                "SELECT id FROM games_gamerecord WHERE status = 'processing' ORDER BY id"
            )
        ]

    def status_of(self, record_id: int) -> str:
        return self._one("SELECT status FROM games_gamerecord WHERE id = %s", [record_id])

    def settled(self) -> bool:
        """Every record final, every valid game rated in lobby and monthly, nothing pending."""
        return (
            self.unfinished() == 0
            and self._one("SELECT count(*) FROM ratings_pendingrating") == 0
            and not self.unrated_games()
        )

    def unrated_games(self) -> list[int]:
        return [
            row[0]
            for row in self._rows(
                """
                SELECT g.id FROM games_game g JOIN games_gamerecord r ON r.id = g.record_id
                WHERE r.status = 'valid' AND NOT EXISTS (
                    SELECT 1 FROM ratings_ratingchange c
                    WHERE c.game_id = g.id AND c.reason = 'game' AND c.system = 'monthly'
                ) OR r.status = 'valid' AND NOT EXISTS (
                    SELECT 1 FROM ratings_ratingchange c
                    WHERE c.game_id = g.id AND c.reason = 'game' AND c.system = 'lobby'
                )
                """
            )
        ]

    def attempts(self) -> dict[int, int]:
        """How many records took how many claims."""
        return dict(
            self._rows("SELECT attempts, count(*) FROM games_gamerecord GROUP BY 1 ORDER BY 1")
        )

    def by_key(self) -> dict[str, tuple[int, str, int | None]]:
        """Each kept first answer's key: the record it names, the record's status, the answer's."""
        return {
            key: (record_id, status, answer_status)
            for record_id, key, status, answer_status in self._rows(
                f"""
                SELECT r.id, a.key, r.status, a.status FROM idempotency_firstanswer a
                JOIN games_gamerecord r ON r.id = ({ANSWER_RECORD_ID})
                """
            )
        }

    def assert_exactly_once(self, *, expected_records: int | None = None) -> dict:
        """The promises, checked in SQL: returns a few figures for the test's report."""
        figures = {"records": self.records()}
        if expected_records is not None:
            assert figures["records"] == expected_records
        statuses = dict(self._rows("SELECT status, count(*) FROM games_gamerecord GROUP BY 1"))
        assert set(statuses) <= {"valid", "invalid"}, f"records not final: {statuses}"
        assert statuses.get("invalid", 0) == 0, "every submitted record here is a valid game"
        # A kept answer names its record: the two were committed together, or neither was.
        half_stored = self._rows(
            f"""
            SELECT a.key FROM idempotency_firstanswer a
            LEFT JOIN games_gamerecord r ON r.id = ({ANSWER_RECORD_ID})
            WHERE r.id IS NULL
            """
        )
        assert half_stored == [], f"answers kept without their records: {half_stored}"
        verdicts = self._rows(
            """
            SELECT r.id, count(l.record_id) FROM games_gamerecord r
            LEFT JOIN fault_verdict_log l ON l.record_id = r.id
            GROUP BY r.id HAVING count(l.record_id) <> 1
            """
        )
        assert verdicts == [], f"records whose verdict was not written exactly once: {verdicts}"
        games = self._rows(
            """
            SELECT r.id, count(g.id) FROM games_gamerecord r
            LEFT JOIN games_game g ON g.record_id = r.id
            GROUP BY r.id, r.status
            HAVING count(g.id) <> CASE WHEN r.status = 'valid' THEN 1 ELSE 0 END
            """
        )
        assert games == [], f"records without exactly one game (valid) or none: {games}"
        rated = self._rows(
            """
            SELECT g.id,
                   count(*) FILTER (WHERE c.system = 'lobby'),
                   count(*) FILTER (WHERE c.system = 'monthly'),
                   count(*) FILTER (WHERE c.system NOT IN ('lobby', 'monthly')),
                   count(DISTINCT (c.player_id, c.system))
            FROM games_game g
            JOIN games_gamerecord r ON r.id = g.record_id
            LEFT JOIN ratings_ratingchange c ON c.game_id = g.id AND c.reason = 'game'
            WHERE r.status = 'valid'
            GROUP BY g.id
            """
        )
        wrong = [row for row in rated if row[1:] != (2, 2, 0, 4)]
        assert wrong == [], (
            f"games not rated exactly once (game, lobby, monthly, other, distinct): {wrong[:20]}"
        )
        assert self._one("SELECT count(*) FROM ratings_pendingrating") == 0
        figures["games"] = len(rated)
        figures["attempts"] = self.attempts()
        return figures


def check_consistency(database_url: str, env: dict | None = None, *argv: str) -> dict:
    """``manage.py check_consistency --json`` against a database; the parsed report."""
    done = manage(database_url, "check_consistency", "--json", *argv, env=env)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["consistent"] == (done.returncode == 0)
    return report


def assert_consistent(database_url: str, env: dict | None = None) -> dict:
    """No breach; with ``--recompute``, whose differences from a replay (games applied out of
    game order, which docs/ratings.md §10 allows until ``recompute_ratings``) are counted in
    ``report["replay_differences"]`` rather than failed on."""
    report = check_consistency(database_url, env, "--recompute")
    replay = [b for b in report["breaches"] if b["code"] == "recompute_differs"]
    breaches = "\n".join(
        f"[{b['code']}] {b['message']}" for b in report["breaches"] if b not in replay
    )
    assert not breaches, f"check_consistency found breaches:\n{breaches}"
    report["replay_differences"] = len(replay)
    return report


def wait_settled(ledger: Ledger, *, timeout: float, what: str, on_timeout: Callable | None = None):
    """Wait until the pipeline has nothing left to do; on a timeout say what is left."""
    try:
        wait_for(ledger.settled, timeout=timeout, interval=0.25, what=what)
    except AssertionError as exc:
        left = (
            f"{ledger.unfinished()} records unfinished, {len(ledger.unrated_games())} valid "
            "games unrated"
        )
        extra = on_timeout() if on_timeout else ""
        raise AssertionError(f"{exc}: {left}\n{extra}") from None
