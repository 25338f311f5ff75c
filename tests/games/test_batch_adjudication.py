"""Batch adjudication (games/adjudication/): many records claimed, judged and filed in one
transaction end exactly as the same records adjudicated one by one, and keep exactly once."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction

from games import services
from games.adjudication import claims
from games.adjudication import services as adjudication
from games.models import GameRecord, ReportedGame
from games.reports import batch as report_batch
from players.models import Notice
from ratings.models import PendingRating, RatingChange
from tests.factories import PlayerFactory, UserFactory
from tests.games.helpers import as_body, colour_mismatch_record, selfplay_record

pytestmark = pytest.mark.django_db


class _RolledBack(Exception):
    pass


@pytest.fixture
def seated():
    return {
        name: PlayerFactory(display_name=name, with_user=True)
        for name in ("Ingrid", "Tomas", "Csilla", "Dora")
    }


def _submit(actor, record: dict) -> int:
    submission = services.record_submit(actor=actor, body=as_body(record))
    assert submission.accepted, submission.refusal
    return submission.record.pk


def _snapshot() -> dict:
    """What adjudication left, without ids and times that differ between two runs."""
    reported = []
    for game in ReportedGame.objects.order_by("fingerprint"):
        versions = [
            (
                v.number,
                v.kind,
                v.role,
                v.author_id,
                v.side_player_id,
                v.record_id,
                list(v.scores),
                v.winner_seat,
                v.end_reason,
                v.minutes,
                v.status,
                v.standing,
                v.answer_note,
                v.answered_by_id,
            )
            for v in game.versions.order_by("number")
        ]
        row = None
        if game.game_id is not None:
            g = game.game
            seats = [(s.seat, s.player_id, s.colour, s.score) for s in g.seats.order_by("seat")]
            row = (
                g.record_id,
                g.players_count,
                g.is_pairs,
                g.winner_seat,
                g.is_draw,
                g.end_reason,
                g.placements,
                g.placements_count,
                g.turns,
                g.endgame_from,
                g.clock,
                g.played_at,
                g.context,
                seats,
            )
        reported.append(
            (
                game.fingerprint,
                game.seat_players,
                game.is_pairs,
                game.extensions,
                game.match_id,
                game.state,
                game.played_at,
                versions,
                row,
            )
        )
    records = list(
        GameRecord.objects.order_by("pk").values_list(
            "pk", "status", "verdict", "error_code", "error_placement", "engine_version", "attempts"
        )
    )
    return {
        "reported": reported,
        "records": records,
        "notices": sorted(Notice.objects.values_list("user_id", "text")),
        "rated": sorted(
            RatingChange.objects.values_list("game__record_id", "player_id", "system", "delta")
        ),
        "pending": PendingRating.objects.count(),
    }


def _adjudicated(run, capture) -> dict:
    """Run an adjudication with its after-commit work, read what it left, and undo it all."""
    try:
        with transaction.atomic():
            with capture(execute=True):
                run()
            result = _snapshot()
            raise _RolledBack
    except _RolledBack:
        pass
    return result


def test_a_batch_files_exactly_what_one_by_one_adjudication_files(
    seated, django_capture_on_commit_callbacks
):
    ingrid, tomas, csilla, dora = (seated[n] for n in ("Ingrid", "Tomas", "Csilla", "Dora"))
    staff = UserFactory(is_staff=True)
    # A game reported before, which a record of this run confirms.
    earlier = selfplay_record(5, ["Tomas", "Ingrid"])
    assert services.record_adjudicate(record_id=_submit(tomas.user, earlier)) == "valid"
    same_game = selfplay_record(3, ["Ingrid", "Tomas"])
    for actor, record in [
        (staff, selfplay_record(1, ["Ingrid", "Tomas"])),  # a ruling: stands at once
        (ingrid.user, selfplay_record(2, ["Ingrid", "Tomas"])),  # waits for Tomas
        (ingrid.user, same_game),
        (tomas.user, same_game),  # the other side sends the same game: it stands
        (ingrid.user, selfplay_record(4, ["Ingrid", "Tomas", "Csilla"], "3")),  # no rating
        (dora.user, selfplay_record(6, ["Dora", "Csilla", "Ingrid", "Tomas"], "pairs")),
        (staff, selfplay_record(7, ["Dora", "Csilla", "Ingrid", "Tomas"], "4")),
        (ingrid.user, colour_mismatch_record(["Ingrid", "Tomas"])),  # invalid
        (ingrid.user, earlier),  # confirms the earlier report
    ]:
        _submit(actor, record)
    pending = list(GameRecord.objects.filter(status="pending").order_by("pk").values_list("pk"))
    assert len(pending) == 9

    def one_by_one():
        for (record_id,) in pending:
            services.record_adjudicate(record_id=record_id)

    def in_batches():
        while services.records_adjudicate_pending(limit=4):
            pass

    alone = _adjudicated(one_by_one, django_capture_on_commit_callbacks)
    batched = _adjudicated(in_batches, django_capture_on_commit_callbacks)
    assert batched == alone
    # And the run did what it should: 9 valid, 1 invalid, games standing, notices, ratings.
    statuses = [status for _pk, status, *_ in alone["records"]]
    assert statuses.count("valid") == 9 and statuses.count("invalid") == 1
    states = [row[5] for row in alone["reported"]]
    assert states.count("standing") == 5 and states.count("reported") == 2
    assert alone["notices"] and alone["rated"] and alone["pending"] == 0


def test_a_batch_claims_each_record_once_and_at_most_its_size(seated):
    ingrid = seated["Ingrid"]
    ids = [_submit(ingrid.user, selfplay_record(seed, ["Ingrid", "Tomas"])) for seed in range(5)]
    first = claims.records_claim_pending(token=uuid.uuid4(), limit=3)
    second = claims.records_claim_pending(token=uuid.uuid4(), limit=3)
    assert [r.pk for r in first] == ids[:3]
    assert [r.pk for r in second] == ids[3:]
    assert claims.records_claim_pending(token=uuid.uuid4(), limit=3) == []
    assert set(GameRecord.objects.values_list("status", "attempts")) == {("processing", 1)}


def test_a_record_taken_over_meanwhile_is_not_written_by_the_late_batch(seated, monkeypatch):
    ingrid = seated["Ingrid"]
    ids = [_submit(ingrid.user, selfplay_record(seed, ["Ingrid", "Tomas"])) for seed in (8, 9)]
    other = uuid.uuid4()

    def taken_over():  # while the batch judges, another worker takes one record over
        GameRecord.objects.filter(pk=ids[0]).update(claim_token=other)

    monkeypatch.setattr(adjudication, "_injected_delay", taken_over)
    outcomes = services.records_adjudicate_pending()
    assert outcomes == {"superseded": 1, "valid": 1}
    assert GameRecord.objects.get(pk=ids[0]).status == "processing"
    assert not ReportedGame.objects.filter(versions__record_id=ids[0]).exists()
    assert ReportedGame.objects.filter(versions__record_id=ids[1]).count() == 1


def test_what_a_dead_delivery_claimed_is_taken_over_at_once_by_its_redelivery(seated):
    ingrid = seated["Ingrid"]
    record_id = _submit(ingrid.user, selfplay_record(10, ["Ingrid", "Tomas"]))
    token = uuid.uuid4()
    assert [r.pk for r in claims.records_claim_pending(token=token, limit=5)] == [record_id]
    # A fresh claim: nobody else takes it before it is stale...
    assert services.records_adjudicate_pending(token=uuid.uuid4(), orphans=True) == {}
    assert services.records_adjudicate_pending(token=token) == {}
    # ...but the same task delivered again (its id is the token) takes it over.
    assert services.records_adjudicate_pending(token=token, orphans=True) == {"valid": 1}
    record = GameRecord.objects.get(pk=record_id)
    assert record.status == "valid" and record.attempts == 2


def test_a_record_that_cannot_be_filed_holds_up_only_itself(seated, monkeypatch):
    ingrid = seated["Ingrid"]
    ids = [_submit(ingrid.user, selfplay_record(seed, ["Ingrid", "Tomas"])) for seed in (11, 12)]

    def batch_fails(items):
        raise RuntimeError("the batch's filing failed")

    real_report = adjudication.report_from_record

    def fails_for_first(*, record, verdict, document):
        if record.pk == ids[0]:
            raise RuntimeError("this record cannot be filed")
        return real_report(record=record, verdict=verdict, document=document)

    monkeypatch.setattr(adjudication, "reports_from_records", batch_fails)
    monkeypatch.setattr(adjudication, "report_from_record", fails_for_first)
    with pytest.raises(RuntimeError, match="cannot be filed"):
        services.records_adjudicate_pending()
    assert GameRecord.objects.get(pk=ids[0]).status == "processing"  # the sweep retries it
    assert GameRecord.objects.get(pk=ids[1]).status == "valid"
    assert ReportedGame.objects.filter(versions__record_id=ids[1]).count() == 1


def test_a_fingerprint_taken_meanwhile_sends_the_fresh_games_one_by_one(seated, monkeypatch):
    """Another worker files the same game between our look-up and our insert: the bulk insert
    fails on the unique fingerprint, and the batch's fresh games are filed one by one."""
    ingrid = seated["Ingrid"]
    mine = _submit(ingrid.user, selfplay_record(13, ["Ingrid", "Tomas"]))
    real_fresh = report_batch._file_fresh
    collided = []

    def collide(fresh):
        # The other worker's game, with our fingerprint, appears just before our insert.
        record, _verdict, document, fingerprint = fresh[0]
        ReportedGame.objects.create(
            fingerprint=fingerprint, seat_players=record.seat_players, played_at=record.created
        )
        try:
            real_fresh(fresh)
        except Exception as exc:
            collided.append(type(exc).__name__)
            raise

    monkeypatch.setattr(report_batch, "_file_fresh", collide)
    assert services.records_adjudicate_pending() == {"valid": 1}
    assert collided == ["IntegrityError"]
    game = ReportedGame.objects.get()
    assert list(game.versions.values_list("record_id", "status")) == [(mine, "open")]


def test_a_submission_queues_the_batch_task_only_when_none_is_queued(
    seated, monkeypatch, django_capture_on_commit_callbacks
):
    from games import tasks
    from tantrix_site import queueing

    published: list[int] = []
    ingrid = seated["Ingrid"]
    monkeypatch.setattr(queueing, "tasks_eager", lambda: False)  # as with a broker
    monkeypatch.setattr(
        tasks.adjudicate_pending, "apply_async", lambda args, **kw: published.append(*args)
    )
    services.adjudication_schedule_release()
    try:
        with django_capture_on_commit_callbacks(execute=True):
            first = _submit(ingrid.user, selfplay_record(14, ["Ingrid", "Tomas"]))
            _submit(ingrid.user, selfplay_record(15, ["Ingrid", "Tomas"]))
        assert published == [first]  # the second is claimed by the queued task
        services.adjudication_schedule_release()  # the task starts
        with django_capture_on_commit_callbacks(execute=True):
            third = _submit(ingrid.user, selfplay_record(16, ["Ingrid", "Tomas"]))
        assert published == [first, third]
    finally:
        services.adjudication_schedule_release()


def test_the_task_stores_every_pending_record_in_batches(seated, settings):
    from games import tasks

    settings.GAME_ADJUDICATION_BATCH = 2
    ingrid = seated["Ingrid"]
    ids = [_submit(ingrid.user, selfplay_record(s, ["Ingrid", "Tomas"])) for s in range(20, 25)]
    assert tasks.adjudicate_pending.apply(args=(ids[0],)).get() == 5
    assert set(GameRecord.objects.values_list("status", "attempts")) == {("valid", 1)}
