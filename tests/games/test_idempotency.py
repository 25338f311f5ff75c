"""A repeated Idempotency-Key gets the first answer again, byte for byte: the idempotency
middleware (tantrix_site/idempotency) keeps it in its own table, not on the record."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from rest_framework.exceptions import Throttled
from rest_framework.test import APIClient

from games.models import GameRecord, GameReport
from games.records import services as record_services
from players.tokens.services import api_token_issue
from tantrix_site.errors import ServiceBusy
from tantrix_site.idempotency.models import FirstAnswer
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, selfplay_record


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", with_user=True)


def post(client, body: bytes, key: str = "", **extra):
    if key:
        extra["HTTP_IDEMPOTENCY_KEY"] = key
    return client.generic(
        "POST", "/api/games/records/", body, content_type="application/json", **extra
    )


@pytest.mark.django_db
def test_the_first_answer_is_kept_as_it_was_given(ingrid, tomas):
    """Whatever the answer, accepted or refused, the kept one is the bytes the client got."""
    client = client_for(ingrid.user)
    accepted = post(client, as_body(selfplay_record(4, ["Ingrid", "Tomas"])), "a-1")
    assert accepted.status_code == 202
    kept = FirstAnswer.objects.get(key="a-1")
    record_id = accepted.json()["id"]
    assert (kept.user_id, kept.method, kept.path, kept.status) == (
        ingrid.user.pk,
        "POST",
        "/api/games/records/",
        202,
    )
    assert bytes(kept.body) == accepted.content
    assert kept.headers["Location"] == f"/api/games/records/{record_id}/"
    assert kept.headers["Content-Type"] == "application/json"
    assert kept.headers["Content-Language"] == accepted["Content-Language"]
    refused = post(client, b"nope", "a-2")
    assert refused.status_code == 400
    assert bytes(FirstAnswer.objects.get(key="a-2").body) == refused.content
    # The record keeps the game, not the answers.
    names = {f.name for f in GameRecord._meta.get_fields()}
    assert not names & {"response_status", "response_body", "idempotency_key"}


@pytest.mark.django_db
def test_without_a_key_nothing_is_kept(ingrid, tomas):
    body = as_body(selfplay_record(4, ["Ingrid", "Tomas"]))
    first = post(client_for(ingrid.user), body)
    second = post(client_for(ingrid.user), body)
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] != second.json()["id"]
    assert "Idempotent-Replayed" not in second
    assert not FirstAnswer.objects.exists()


@pytest.mark.django_db
def test_a_replay_returns_the_kept_answer_verbatim(ingrid):
    """Even were the links to change, a repeated key gets exactly what the first request got."""
    client = client_for(ingrid.user)
    body = as_body(selfplay_record(5, ["Ingrid", "Nobody"]))
    first = post(client, body, "same")
    assert first.status_code == 400
    marked = first.content.replace(b'{"players"', b'{"marker":["kept"],"players"')
    FirstAnswer.objects.update(body=marked)
    second = post(client, body, "same")
    assert second.status_code == 400 and second["Idempotent-Replayed"] == "true"
    assert second.content == marked
    assert second.json() == {**first.json(), "marker": ["kept"]}
    assert GameRecord.objects.count() == 1  # the repeat's own record was rolled back


@pytest.mark.django_db
def test_a_key_is_per_user_method_and_path(ingrid, tomas):
    body = as_body(selfplay_record(6, ["Ingrid", "Tomas"]))
    mine = post(client_for(ingrid.user), body, "k")
    theirs = post(client_for(tomas.user), body, "k")
    assert mine.status_code == theirs.status_code == 202
    assert mine.json()["id"] != theirs.json()["id"] and "Idempotent-Replayed" not in theirs
    # The same key on a safe method, or on a view that did not opt in, is no repeat.
    listed = client_for(ingrid.user).get("/api/games/records/", HTTP_IDEMPOTENCY_KEY="k")
    assert listed.status_code == 200 and "Idempotent-Replayed" not in listed
    sheet = client_for(ingrid.user).post(
        "/api/games/score-sheets/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert sheet.status_code == 400
    assert FirstAnswer.objects.count() == 2


@pytest.mark.django_db
def test_nothing_is_kept_half_way(ingrid, monkeypatch):
    """Record and answer commit together: if the answer cannot be kept, the record is not."""

    def broken(**fields):
        raise DatabaseError("the answer could not be written")

    monkeypatch.setattr(FirstAnswer.objects, "create", broken)
    with pytest.raises(DatabaseError):
        post(client_for(ingrid.user), b"nope", "k1")
    assert not GameRecord.objects.exists()


@pytest.mark.django_db
def test_a_server_error_is_not_kept_and_the_repeat_does_the_work(ingrid, tomas, monkeypatch):
    """A 5xx undoes the request's work and keeps no answer: the client's repeat submits."""
    real = record_services.record_submit

    def busy_after_storing(**kwargs):
        real(**kwargs)
        raise ServiceBusy("Busy, try again.", retry_after=1)

    body = as_body(selfplay_record(7, ["Ingrid", "Tomas"]))
    monkeypatch.setattr(record_services, "record_submit", busy_after_storing)
    failed = post(client_for(ingrid.user), body, "retry-me")
    assert failed.status_code == 503
    assert not GameRecord.objects.exists() and not FirstAnswer.objects.exists()
    monkeypatch.setattr(record_services, "record_submit", real)
    again = post(client_for(ingrid.user), body, "retry-me")
    assert again.status_code == 202 and "Idempotent-Replayed" not in again
    assert GameRecord.objects.count() == 1


@pytest.mark.django_db
def test_an_answer_that_asks_the_client_to_come_back_is_not_kept(ingrid, tomas, monkeypatch):
    def throttled(**kwargs):
        raise Throttled(wait=1)

    body = as_body(selfplay_record(8, ["Ingrid", "Tomas"]))
    monkeypatch.setattr(record_services, "record_submit", throttled)
    assert post(client_for(ingrid.user), body, "later").status_code == 429
    assert not FirstAnswer.objects.exists()
    monkeypatch.undo()
    again = post(client_for(ingrid.user), body, "later")
    assert again.status_code == 202 and "Idempotent-Replayed" not in again


@pytest.mark.django_db
def test_an_anonymous_request_keeps_nothing():
    response = post(client_for(None), b"{}", "anon")
    assert response.status_code == 401
    assert not GameRecord.objects.exists() and not FirstAnswer.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_requests_racing_with_one_key_make_one_record_and_one_answer(monkeypatch):
    """Both requests have stored their record before either keeps its answer: the second's
    insert waits for the first's commit, then its work is rolled back and it replays the
    first's answer. Nobody gets a 409, and the game is submitted once."""
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    PlayerFactory(display_name="Tomas", with_user=True)
    body = as_body(selfplay_record(9, ["Ingrid", "Tomas"]))
    both_stored = threading.Barrier(2, timeout=20)
    real = record_services.record_submit

    def submit_then_wait(**kwargs):
        submission = real(**kwargs)
        both_stored.wait()  # each record is written, neither answer is kept yet
        return submission

    monkeypatch.setattr(record_services, "record_submit", submit_then_wait)
    answers = []

    def send() -> None:
        try:
            answers.append(post(client_for(ingrid.user), body, "race"))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 2
    first, second = sorted(answers, key=lambda a: "Idempotent-Replayed" in a)
    assert first.status_code == second.status_code == 202
    assert "Idempotent-Replayed" not in first and second["Idempotent-Replayed"] == "true"
    assert second.content == first.content
    assert list(GameRecord.objects.values_list("pk", flat=True)) == [first.json()["id"]]
    assert FirstAnswer.objects.count() == 1


OLD = [("games", "0005_placements_document_field")]


@pytest.mark.django_db(transaction=True)
def test_answers_kept_on_records_before_still_answer_their_keys():
    """The migration copies each record's first answer into the middleware's table, so an old
    submission's repeated key is answered as it was, and nothing is submitted twice."""
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    PlayerFactory(display_name="Tomas", with_user=True)
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    old = executor.loader.project_state(OLD).apps
    body = as_body(selfplay_record(10, ["Ingrid", "Tomas"]))
    record = old.get_model("games", "GameRecord").objects.create(
        body=body,
        body_size=len(body),
        submitter_id=ingrid.user.pk,
        source="api",
        idempotency_key="old-key",
        response_status=202,
        response_body={"id": 1, "status": "pending", "url": "/x/", "page": "/y/"},
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    kept = FirstAnswer.objects.get()
    assert (kept.user_id, kept.key, kept.status) == (ingrid.user.pk, "old-key", 202)
    again = post(client_for(ingrid.user), body, "old-key")
    assert again.status_code == 202 and again["Idempotent-Replayed"] == "true"
    assert again.json() == {"id": 1, "status": "pending", "url": "/x/", "page": "/y/"}
    assert again["Location"] == "/x/"
    assert list(GameRecord.objects.values_list("pk", flat=True)) == [record.pk]
    assert not GameReport.objects.exists()


@pytest.mark.django_db
def test_a_submission_is_three_statements_and_a_key_adds_one_insert(ingrid, tomas, monkeypatch):
    """docs/architecture.md, "The submission itself": the token, the players, the record; with a
    key, the answer too, in one transaction (a savepoint inside the test's transaction)."""
    token = api_token_issue(user=ingrid.user).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    monkeypatch.setattr(record_services, "enqueue_adjudication", lambda record_id: True)

    def statements(seed: int, key: str = "") -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            answer = post(client, as_body(selfplay_record(seed, ["Ingrid", "Tomas"])), key)
        assert answer.status_code == 202
        return [
            " ".join(query["sql"].split()[:3]).replace('"', "")
            for query in queries.captured_queries
        ]

    statements(20)  # the token's first use also stamps its last_used
    assert statements(21) == [
        "SELECT players_apitoken.id, players_apitoken.user_id,",
        "SELECT players_player.id, players_player.display_name,",
        "INSERT INTO games_gamerecord",
    ]
    keyed = statements(22, "count")
    assert [s.split()[0] for s in keyed] == [
        "SAVEPOINT",
        "SELECT",
        "SELECT",
        "INSERT",
        "INSERT",
        "RELEASE",
    ]
    assert keyed[4] == "INSERT INTO idempotency_firstanswer"
