"""The submission pipeline with real PostgreSQL, Redis, Celery workers, beat and gunicorn."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from games import services
from games.models import GameRecord, GameReport
from games.tasks import adjudicate_record
from players.tokens.services import api_token_issue
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, colour_mismatch_record, selfplay_record
from tests.integration.conftest import start_beat, start_web, wait_for

# A valid record is a report of its game (games/reports): exactly one per record; the Game
# row follows only once the other side agrees.
pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def players(transactional_db):
    return (
        PlayerFactory(display_name="Ingrid", with_user=True),
        PlayerFactory(display_name="Tomas", with_user=True),
    )


def status_of(record_id: int) -> str:
    return GameRecord.objects.values_list("status", flat=True).get(pk=record_id)


def final(record_id: int) -> bool:
    return status_of(record_id) in ("valid", "invalid")


def test_worker_adjudicates_valid_and_invalid_records(start_worker, players):
    ingrid, _ = players
    start_worker()
    good = services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(21, ["Ingrid", "Tomas"]))
    )
    bad = services.record_submit(
        actor=ingrid.user, body=as_body(colour_mismatch_record(["Ingrid", "Tomas"]))
    )
    assert good.accepted and bad.accepted
    wait_for(lambda: final(good.record.pk) and final(bad.record.pk), what="verdicts")
    good.record.refresh_from_db()
    bad.record.refresh_from_db()
    assert good.record.status == "valid" and GameReport.objects.filter(record=good.record).exists()
    assert bad.record.status == "invalid" and bad.record.error_code == "COLOUR_MISMATCH"
    assert bad.record.error_placement == 2
    assert good.record.attempts == bad.record.attempts == 1


def test_broker_down_at_submission_then_adjudicated_when_it_returns(
    start_worker, start_process, private_redis, players, tmp_path
):
    ingrid, _ = players
    token = api_token_issue(user=ingrid.user).key
    base = start_web(start_process, broker_url=private_redis.url)
    private_redis.stop()

    request = urllib.request.Request(
        f"{base}/api/games/records/",
        data=as_body(selfplay_record(22, ["Ingrid", "Tomas"])),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 202
        body = json.loads(response.read())
    assert time.monotonic() - started < 15, "a broker outage must not hang the submission"
    assert status_of(body["id"]) == "pending"
    health = urllib.request.Request(f"{base}/healthz")
    with pytest.raises(urllib.error.HTTPError) as down:
        urllib.request.urlopen(health, timeout=10)
    assert down.value.code == 503

    private_redis.start()
    start_worker(broker_url=private_redis.url, GAME_RECORD_STALE_SECONDS="1")
    start_beat(
        start_process,
        tmp_path,
        broker_url=private_redis.url,
        sweep_seconds=1,
        GAME_RECORD_STALE_SECONDS="1",
    )
    wait_for(lambda: final(body["id"]), timeout=60, what="adjudication after the broker returned")
    assert status_of(body["id"]) == "valid"
    assert GameReport.objects.filter(record_id=body["id"]).count() == 1


def test_worker_killed_mid_task_is_adjudicated_exactly_once(
    start_worker, start_process, players, tmp_path, settings
):
    ingrid, _ = players
    slow = start_worker(GAME_ADJUDICATION_DELAY_SECONDS="5", GAME_RECORD_STALE_SECONDS="2")
    submission = services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(23, ["Ingrid", "Tomas"]))
    )
    wait_for(lambda: status_of(submission.record.pk) == "processing", what="the claim")
    slow.kill()
    assert status_of(submission.record.pk) == "processing"

    start_worker(GAME_RECORD_STALE_SECONDS="2")
    start_beat(
        start_process,
        tmp_path,
        broker_url=settings.CELERY_BROKER_URL,
        sweep_seconds=1,
        GAME_RECORD_STALE_SECONDS="2",
    )
    wait_for(lambda: final(submission.record.pk), timeout=60, what="recovery by the sweep")
    record = GameRecord.objects.get(pk=submission.record.pk)
    assert record.status == "valid"
    assert record.attempts == 2
    assert GameReport.objects.filter(record=record).count() == 1


def test_pool_process_killed_task_is_redelivered(start_worker, players):
    ingrid, _ = players
    worker = start_worker(GAME_ADJUDICATION_DELAY_SECONDS="4", GAME_RECORD_STALE_SECONDS="2")
    submission = services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(24, ["Ingrid", "Tomas"]))
    )
    wait_for(lambda: status_of(submission.record.pk) == "processing", what="the claim")
    children = worker.children()
    assert children, "prefork pool child not found"
    import os
    import signal

    for pid in children:
        os.kill(pid, signal.SIGKILL)
    # reject_on_worker_lost puts the message back; the redelivered task finds a fresh claim,
    # retries after the stale window and then takes the record over. No beat runs here.
    wait_for(lambda: final(submission.record.pk), timeout=60, what="redelivery")
    assert "WorkerLostError" in worker.output() or "SIGKILL" in worker.output()
    assert GameReport.objects.filter(record_id=submission.record.pk).count() == 1


def test_same_task_delivered_twice_at_once_creates_one_game(start_worker, players):
    ingrid, _ = players
    start_worker(concurrency=2, GAME_ADJUDICATION_DELAY_SECONDS="1", GAME_RECORD_STALE_SECONDS="3")
    start_worker(concurrency=1, GAME_ADJUDICATION_DELAY_SECONDS="1", GAME_RECORD_STALE_SECONDS="3")
    submission = services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(25, ["Ingrid", "Tomas"]))
    )
    for _ in range(3):
        adjudicate_record.delay(submission.record.pk)
    wait_for(lambda: final(submission.record.pk), what="the verdict")
    time.sleep(6)  # let every duplicate delivery (and its retry) run to the end
    assert GameReport.objects.filter(record_id=submission.record.pk).count() == 1
    record = GameRecord.objects.get(pk=submission.record.pk)
    assert record.status == "valid" and record.attempts == 1
