"""Faults injected into the real services: gunicorn, Celery workers and beat, PostgreSQL, Redis.

Each scenario ends with the pipeline settled and ``manage.py check_consistency`` finding no
breach, plus the promises checked directly in SQL (``Ledger.assert_exactly_once``): every record
final with its verdict written exactly once (a trigger logs each committed verdict write), one
game per valid record and none otherwise, every valid game rated exactly once in each of its
tables, nothing left on the ratings' work list. Waits are on conditions with deadlines.

The processes run with a 3 s stale window (GAME_RECORD_STALE_SECONDS), the records' sweep every
second and the ratings' every two. FAULTS_KILL_RECORDS sets how many records flow through the
worker-killing scenario (default 500).
"""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection

from games import services
from players.tokens.services import api_token_issue
from tests.factories import PlayerFactory, UserFactory
from tests.integration.conftest import _test_database_url, start_beat, start_web, wait_for
from tests.integration.fault_support import (
    NAMES,
    Burst,
    Ledger,
    PrivatePostgres,
    assert_consistent,
    check_consistency,
    drop_verdict_log,
    install_verdict_log,
    manage,
    record_bodies,
    seed_players,
    wait_settled,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

FAST = {
    "GAME_RECORD_STALE_SECONDS": "3",
    "RATINGS_SWEEP_SECONDS": "2",
    "RATINGS_APPLY_SCHEDULE_SECONDS": "3",
    "API_THROTTLE_USER": "100000/minute",
}
BURST_RECORDS = 120
KILL_RECORDS = int(os.environ.get("FAULTS_KILL_RECORDS", "500"))


@pytest.fixture
def test_database(transactional_db):
    """The test database, with the verdict log installed; its URL for the processes."""
    url = _test_database_url()
    install_verdict_log(url)
    yield url
    drop_verdict_log(url)


@pytest.fixture
def submitter(test_database):
    """The four players of the records and a staff submitter (may submit anyone's games)."""
    for name in NAMES:
        PlayerFactory(display_name=name)
    admin = UserFactory(is_staff=True, is_superuser=True)
    return admin, api_token_issue(user=admin).key


@pytest.fixture
def private_postgres():
    """A PostgreSQL cluster of the test's own, migrated, with the players and the verdict log."""
    server = PrivatePostgres()
    try:
        server.init()
        migrated = manage(server.url, "migrate", "--noinput")
        assert migrated.returncode == 0, migrated.stderr
        install_verdict_log(server.dsn)
        server.token = seed_players(server.url)
        yield server
    finally:
        server.destroy()


def _settle_and_check(ledger: Ledger, database_url: str, *, timeout: float, what: str) -> dict:
    wait_settled(
        ledger,
        timeout=timeout,
        what=what,
        on_timeout=lambda: "\n".join(
            f"[{b['code']}] {b['message']}"
            for b in check_consistency(database_url, FAST)["breaches"]
        ),
    )
    figures = ledger.assert_exactly_once()
    report = assert_consistent(database_url, FAST)
    assert report["counts"]["records"] == figures["records"]
    figures["replay_differences"] = report["replay_differences"]
    return figures


def test_postgres_restarted_during_a_burst(
    private_postgres, start_worker, start_process, tmp_path, settings
):
    pg = private_postgres
    env = {**FAST, "DATABASE_URL": pg.url}
    broker = settings.CELERY_BROKER_URL
    base = start_web(start_process, broker_url=broker, **env)
    # A tenth of a second per record: a backlog forms, and the outage finds records claimed
    # mid-adjudication and messages queued behind them.
    worker = start_worker(concurrency=2, GAME_ADJUDICATION_DELAY_SECONDS="0.1", **env)
    start_beat(start_process, tmp_path, broker_url=broker, sweep_seconds=1, **env)
    ledger = Ledger(pg.dsn)

    before = Burst(base, pg.token, record_bodies(BURST_RECORDS), prefix="pg-a")
    before.run_in_background()
    wait_for(
        lambda: len(before.accepted()) >= BURST_RECORDS // 4 and ledger.processing(),
        timeout=60,
        what="submissions, and records being adjudicated",
    )
    pg.stop()
    stopped = time.monotonic()
    wait_for(
        lambda: sum(o.answered_at > stopped for o in before.failed()) >= 3,
        timeout=30,
        what="submissions refused while PostgreSQL is down",
    )
    pg.start()
    wait_for(before.done, timeout=120, what="the first burst to be answered")
    # And a burst after the restart, while the workers catch up through the sweep.
    later = record_bodies(BURST_RECORDS // 2, first_seed=BURST_RECORDS)  # games of their own
    after = Burst(base, pg.token, later, prefix="pg-b")
    after.run_in_background()
    wait_for(after.done, timeout=120, what="the second burst to be answered")

    figures = _settle_and_check(ledger, pg.url, timeout=90, what="recovery after the restart")
    stored = ledger.by_key()
    outcomes = before.answered() + after.answered()
    for outcome in outcomes:
        if outcome.status == 202:
            assert stored[outcome.key][:2] == (outcome.record_id, "valid"), outcome
        else:  # refused while the database was down: a 5xx or no answer, and nothing half-way
            assert outcome.status is None or outcome.status >= 500, outcome
            if outcome.key in stored:
                assert stored[outcome.key][1:] == ("valid", 202), outcome
    assert set(stored) <= {o.key for o in outcomes}
    failed = [o for o in outcomes if o.status != 202]
    assert failed and len(failed) < len(outcomes)
    assert all(o.status == 202 for o in after.answered())
    print(
        f"\npostgres restart: {len(outcomes)} submissions, {len(failed)} refused during the "
        f"outage ({sum(o.key in stored for o in failed)} of them stored all the same), "
        f"{figures['records']} records, attempts {figures['attempts']}, worker database errors "
        f"{worker.output().count('OperationalError')}, ratings differing from a replay "
        f"{figures['replay_differences']}"
    )


def test_redis_restarted_during_a_burst(
    submitter, test_database, start_worker, start_process, private_redis, tmp_path
):
    _, token = submitter
    broker = private_redis.url
    base = start_web(start_process, broker_url=broker, **FAST)
    start_worker(broker_url=broker, concurrency=2, **FAST)
    start_beat(start_process, tmp_path, broker_url=broker, sweep_seconds=1, **FAST)
    ledger = Ledger(test_database)

    burst = Burst(base, token, record_bodies(BURST_RECORDS), prefix="redis")
    burst.run_in_background()
    wait_for(lambda: len(burst.accepted()) >= BURST_RECORDS // 3, timeout=60, what="submissions")
    private_redis.stop()  # "shutdown nosave": the queues and unacknowledged messages are lost
    stopped = time.monotonic()
    wait_for(
        lambda: sum(o.answered_at > stopped for o in burst.accepted()) >= 4,
        timeout=60,
        what="submissions accepted while Redis is down",
    )
    private_redis.start()
    wait_for(burst.done, timeout=120, what="the burst to be answered")
    # If Redis is down, submissions still succeed (DESIGN.md): every one was accepted.
    assert [o for o in burst.answered() if o.status != 202] == []

    figures = _settle_and_check(ledger, test_database, timeout=90, what="recovery after Redis")
    stored = ledger.by_key()
    assert {o.key: (o.record_id, "valid") for o in burst.answered()} == {
        key: value[:2] for key, value in stored.items()
    }
    print(
        f"\nredis restart: {figures['records']} records, attempts {figures['attempts']}, "
        f"ratings differing from a replay {figures['replay_differences']}"
    )


def test_workers_killed_in_a_loop_while_records_flow(
    submitter, test_database, start_worker, start_process, tmp_path, settings
):
    admin, _ = submitter
    env = {**FAST, "CELERY_VISIBILITY_TIMEOUT": "10"}  # unacknowledged messages come back too
    start_beat(
        start_process, tmp_path, broker_url=settings.CELERY_BROKER_URL, sweep_seconds=1, **env
    )
    ledger = Ledger(test_database)
    bodies = record_bodies(KILL_RECORDS)
    step = max(10, KILL_RECORDS // 12)  # progress each worker makes before it is killed
    began = time.monotonic()
    submitted = 0
    kills: list[int] = []
    worker = start_worker(concurrency=2, **env)
    while submitted < KILL_RECORDS:
        final = ledger.final()
        while submitted < KILL_RECORDS and submitted - final < 2 * step:
            services.record_submit(actor=admin, body=bodies[submitted])
            submitted += 1
        # Kill once about half of the outstanding records are done: the rest are in the
        # worker's hands or queued when it dies.
        target = final + max(1, min(step, (submitted - final) // 2))
        wait_for(
            lambda target=target: ledger.final() >= target,
            timeout=60,
            interval=0.05,
            what="the worker's progress",
        )
        kills.append(ledger.unfinished())
        worker.kill()  # SIGKILL, parent and pool: the machine died
        worker = start_worker(concurrency=2, **env)

    figures = _settle_and_check(ledger, test_database, timeout=90, what="recovery by the sweep")
    assert figures["records"] == KILL_RECORDS
    assert sum(left > 0 for left in kills) >= 3, kills  # kills that left work behind
    print(
        f"\nworker kills: {KILL_RECORDS} records, {len(kills)} kills (unfinished at each: "
        f"{kills}), attempts {figures['attempts']}, ratings differing from a replay "
        f"{figures['replay_differences']}, {time.monotonic() - began:.1f} s"
    )


def test_beat_down_leaves_records_stuck_until_it_returns(
    submitter, test_database, start_worker, start_process, tmp_path, settings
):
    admin, _ = submitter
    ledger = Ledger(test_database)
    slow = start_worker(concurrency=1, GAME_ADJUDICATION_DELAY_SECONDS="2", **FAST)
    bodies = record_bodies(8)
    # One record for the worker that dies, the rest sent after it died: a worker may reserve
    # more messages than it runs, and a dead worker's reserved messages come back on Redis only
    # after the visibility timeout, so records sent while it lived could be stranded with it.
    services.record_submit(actor=admin, body=bodies[0])
    wait_for(ledger.processing, what="a claim")
    victim = ledger.processing()[0]
    slow.kill()  # mid-task: the record stays claimed, its message unacknowledged
    assert ledger.status_of(victim) == "processing"

    start_worker(concurrency=2, **FAST)
    for body in bodies[1:]:
        services.record_submit(actor=admin, body=body)

    def stuck() -> set[int]:
        return {
            b["ids"]["record"]
            for b in check_consistency(test_database, FAST)["breaches"]
            if b["code"] == "stuck"
        }

    # Without beat nothing takes the dead worker's records over: past the stale window they
    # are reported stuck, while the other records were adjudicated by the new worker.
    wait_for(
        lambda: victim in stuck() and ledger.unfinished() == len(stuck()),
        timeout=60,
        interval=0.5,
        what="the dead worker's records reported stuck",
    )
    left = ledger.unfinished()
    assert 1 <= left < 8

    start_beat(
        start_process, tmp_path, broker_url=settings.CELERY_BROKER_URL, sweep_seconds=1, **FAST
    )
    figures = _settle_and_check(ledger, test_database, timeout=60, what="recovery by the sweep")
    assert figures["records"] == 8
    with connection.cursor() as cursor:
        cursor.execute("SELECT attempts FROM games_gamerecord WHERE id = %s", [victim])
        assert cursor.fetchone()[0] == 2  # claimed by the dead worker, then by the sweep's task
    print(
        f"\nbeat down: {left} record(s) stuck until beat came back, attempts "
        f"{figures['attempts']}, ratings differing from a replay {figures['replay_differences']}"
    )
