"""Re-adjudication of stored records and the reviews it opens (games/verdict_reviews/,
`manage.py readjudicate`, the review pages and API)."""

from __future__ import annotations

import copy
import datetime as dt
import io
import random

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.engine import FULL_ENGINE_VERSION, adjudicate
from games.models import (
    Game,
    GameRecord,
    GameSeat,
    ReadjudicationRun,
    RecordStatus,
    VerdictReview,
)
from games.signals import game_result_changed
from games.verdict_reviews.readjudication import readjudicate, run_for, verdict_changes
from tests.conftest import client_for
from tests.engine.support import perturb
from tests.factories import PlayerFactory, UserFactory
from tests.games.helpers import as_body, selfplay_record

pytestmark = pytest.mark.django_db


def stored(record: dict, verdict: dict | None = None, *, attempts: int = 1) -> GameRecord:
    """A record as the pipeline leaves it: judged by the engine (or given ``verdict``)."""
    verdict = verdict if verdict is not None else adjudicate(record)
    error = verdict.get("error") or {}
    return GameRecord.objects.create(
        body=as_body(record),
        source="api",
        status=RecordStatus.VALID if verdict["valid"] else RecordStatus.INVALID,
        verdict=verdict,
        error_code=error.get("code", ""),
        attempts=attempts,
        engine_version="0",
        adjudicated_at=timezone.now(),
    )


def history(count: int) -> list[GameRecord]:
    """``count`` records: valid games and, every third, a perturbed (mostly invalid) one."""
    records = []
    for seed in range(count):
        record = selfplay_record(seed, ["ana", "bela"])
        if seed % 3 == 2:
            perturb(record, random.Random(seed))
        records.append(stored(record))
    return records


def wrong_scores(record: GameRecord) -> None:
    verdict = copy.deepcopy(record.verdict)
    verdict["scores"] = [score + 1 for score in verdict["scores"]]
    record.verdict = verdict
    record.save(update_fields=["verdict"])


@pytest.mark.parametrize("workers", [1, 2])
def test_exactly_the_one_wrong_verdict_is_found_and_gets_one_review(workers: int) -> None:
    records = history(7)
    wrong = records[3]
    wrong_scores(wrong)
    before = wrong.verdict
    found = []
    run = readjudicate(
        run_for(since=None, event_id=None, apply=True),
        workers=workers,
        batch_size=2,
        on_found=found.append,
    )
    assert [change.record_id for change in found] == [wrong.pk]
    assert found[0].kinds == ["scores"]
    assert (run.checked, run.changed, run.status) == (7, 1, ReadjudicationRun.Status.FINISHED)
    review = VerdictReview.objects.get()
    assert review.record_id == wrong.pk and review.status == VerdictReview.Status.OPEN
    assert review.new_verdict == adjudicate(wrong.body_bytes)
    assert review.old_engine_version == "0"
    assert review.new_engine_version == FULL_ENGINE_VERSION
    wrong.refresh_from_db()
    assert wrong.verdict == before  # history is not rewritten by the run

    # A second run finds it again and brings the same open review up to date: still one.
    readjudicate(run_for(since=None, event_id=None, apply=True), workers=1)
    assert VerdictReview.objects.count() == 1


def test_without_apply_changes_are_reported_and_nothing_is_opened() -> None:
    records = history(4)
    wrong_scores(records[0])
    out = io.StringIO()
    call_command("readjudicate", "--workers", "1", "--no-progress", stdout=out)
    text = out.getvalue()
    assert f"record {records[0].pk}: Scores:" in text
    assert "1 verdicts would change" in text
    assert not VerdictReview.objects.exists()


def test_the_command_writes_one_line_per_change_and_a_real_rate() -> None:
    """With --no-progress the bar is off and counts nothing: the rate is counted apart, and each
    change is one line (tqdm.write's separate line ending once came out as an empty line)."""
    records = history(5)
    wrong_scores(records[0])
    wrong_scores(records[1])
    out = io.StringIO()
    call_command("readjudicate", "--workers", "1", "--no-progress", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Starting re-adjudication")
    assert [line.split(":")[0] for line in lines[1:3]] == [
        f"record {records[0].pk}",
        f"record {records[1].pk}",
    ]
    assert lines[3].startswith("Judged 5 records (") and len(lines) == 4
    rate = int(lines[3].split("(")[1].split()[0])
    assert rate > 0


def test_an_event_with_no_stored_game_is_refused_before_a_run_is_recorded() -> None:
    history(2)
    with pytest.raises(CommandError, match="no stored game belongs to event 424242"):
        call_command("readjudicate", "--event", "424242", "--no-progress", stdout=io.StringIO())
    assert not ReadjudicationRun.objects.exists()


def test_an_interrupted_run_resumes_where_it_stopped() -> None:
    records = history(9)
    wrong_scores(records[7])
    run = run_for(since=None, event_id=None, apply=True)
    judged: list[int] = []

    def interrupt_after_two_batches(count: int) -> None:
        judged.append(count)
        if len(judged) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        readjudicate(run, workers=1, batch_size=2, on_progress=interrupt_after_two_batches)
    run.refresh_from_db()
    assert run.status == ReadjudicationRun.Status.RUNNING
    assert (run.checked, run.last_record_id) == (4, records[3].pk)
    assert not VerdictReview.objects.exists()

    # The same options find the stopped run and judge only what is left.
    resumed = run_for(since=None, event_id=None, apply=True)
    assert resumed.pk == run.pk
    again: list[int] = []
    readjudicate(resumed, workers=1, batch_size=2, limit=3, on_progress=again.append)
    assert sum(again) == 3 and resumed.status == ReadjudicationRun.Status.RUNNING
    readjudicate(resumed, workers=2, batch_size=2, on_progress=again.append)
    assert sum(again) == 5  # 4 + 5 = 9: every record judged exactly once
    assert resumed.checked == 9 and resumed.status == ReadjudicationRun.Status.FINISHED
    assert list(VerdictReview.objects.values_list("record_id", flat=True)) == [records[7].pk]
    # A finished run is not resumed: the next call starts a new one.
    assert run_for(since=None, event_id=None, apply=True).pk != run.pk


def test_records_the_engine_never_judged_and_filters() -> None:
    refused = stored(selfplay_record(1, ["ana", "bela"]), attempts=0)
    wrong_scores(refused)  # a refusal's verdict is the envelope's, not the engine's
    old = stored(selfplay_record(2, ["ana", "bela"]))
    wrong_scores(old)
    GameRecord.objects.filter(pk=old.pk).update(created=timezone.now() - dt.timedelta(days=30))
    in_event = stored(selfplay_record(3, ["ana", "bela"]))
    wrong_scores(in_event)
    game_for(in_event, event_id=77)

    def changed(**options) -> list[int]:
        found = []
        run = run_for(since=options.get("since"), event_id=options.get("event"), apply=False)
        readjudicate(run, workers=1, on_found=found.append)
        return [change.record_id for change in found]

    assert changed() == [old.pk, in_event.pk]
    assert changed(since=timezone.now().date() - dt.timedelta(days=1)) == [in_event.pk]
    assert changed(event=77) == [in_event.pk]


def test_verdict_changes_in_substance_only() -> None:
    valid = adjudicate(selfplay_record(4, ["a", "b"]))
    assert verdict_changes(valid, valid) == []
    other = dict(valid, scores=[0, 0], winner=None)
    assert verdict_changes(valid, other) == ["scores", "winner"]
    invalid = {
        "valid": False,
        "error": {"code": "OCCUPIED", "placement": 3, "player": 0, "message": "old words"},
    }
    reworded = copy.deepcopy(invalid)
    reworded["error"]["message"] = "new words"
    assert verdict_changes(invalid, reworded) == []
    assert verdict_changes(valid, invalid) == ["validity"]
    moved = copy.deepcopy(invalid)
    moved["error"]["placement"] = 4
    assert verdict_changes(invalid, moved) == ["error"]


def game_for(record: GameRecord, event_id: int | None = None) -> Game:
    verdict = record.verdict
    game = Game.objects.create(
        record=record,
        players_count=2,
        winner_seat=verdict["winner"],
        is_draw=verdict["winner"] is None,
        end_reason=verdict["end"],
        placements=[],
        placements_count=verdict["placements"],
        turns=verdict["turns"],
        event_id=event_id,
        played_at=timezone.now(),
    )
    for seat, score in enumerate(verdict["scores"]):
        GameSeat.objects.create(
            game=game, seat=seat, player=PlayerFactory(), colour="red", score=score
        )
    return game


@pytest.fixture
def review_of_a_game(db) -> tuple[VerdictReview, Game]:
    record = stored(selfplay_record(5, ["ana", "bela"]))
    wrong_scores(record)
    game = game_for(record)
    readjudicate(run_for(since=None, event_id=None, apply=True), workers=1)
    return VerdictReview.objects.get(), game


def test_approving_gives_the_record_and_its_game_the_new_verdict(
    review_of_a_game, admin_user, django_capture_on_commit_callbacks
) -> None:
    review, game = review_of_a_game
    told = []

    def receiver(sender, game_id, **kwargs):
        told.append(game_id)

    game_result_changed.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = client_for(admin_user).post(
                f"/api/verdict-reviews/{review.pk}/approve/", {"note": "engine fix"}, format="json"
            )
    finally:
        game_result_changed.disconnect(receiver)
    assert response.status_code == 200, response.data
    assert response.data["status"] == "approved" and response.data["note"] == "engine fix"
    record = GameRecord.objects.get(pk=review.record_id)
    assert record.verdict == review.new_verdict
    assert record.engine_version == FULL_ENGINE_VERSION
    scores = list(game.seats.order_by("seat").values_list("score", flat=True))
    assert scores == review.new_verdict["scores"]
    assert told == [game.pk]
    # Decided once only: a second decision is a 400 with the reason.
    again = client_for(admin_user).post(f"/api/verdict-reviews/{review.pk}/reject/", {})
    assert again.status_code == 400 and "review" in again.data


def test_rejecting_keeps_the_stored_verdict(review_of_a_game, admin_user, client) -> None:
    review, game = review_of_a_game
    client.force_login(admin_user)
    response = client.post(
        f"/games/verdict-reviews/{review.pk}/decide/", {"decision": "reject", "note": "no"}
    )
    assert response.status_code == 302
    review.refresh_from_db()
    assert review.status == VerdictReview.Status.REJECTED and review.decided_by == admin_user
    assert GameRecord.objects.get(pk=review.record_id).verdict == review.old_verdict
    assert list(game.seats.values_list("score", flat=True)) == review.old_verdict["scores"]
    page = client.get(f"/games/verdict-reviews/{review.pk}/")
    assert "Rejected" in page.content.decode()


def test_a_bad_decision_is_refused_cleanly(review_of_a_game, admin_user, client) -> None:
    review, _ = review_of_a_game
    api = client_for(admin_user)
    long_note = api.post(f"/api/verdict-reviews/{review.pk}/approve/", {"note": "x" * 2001})
    assert long_note.status_code == 400 and "note" in long_note.data
    assert api.get("/api/verdict-reviews/?status=maybe").status_code == 400
    assert api.post("/api/verdict-reviews/99999/approve/", {}).status_code == 404
    client.force_login(admin_user)
    client.post(f"/games/verdict-reviews/{review.pk}/decide/", {"decision": "perhaps"})
    review.refresh_from_db()
    assert review.status == VerdictReview.Status.OPEN


@pytest.mark.parametrize("role", ["anonymous", "player", "staff"])
def test_review_endpoints_are_for_staff_only(review_of_a_game, role, client) -> None:
    review, _ = review_of_a_game
    user = {
        "anonymous": None,
        "player": PlayerFactory(with_user=True).user,
        "staff": UserFactory(is_staff=True),
    }[role]
    api = client_for(user)
    answers = [
        api.get("/api/verdict-reviews/").status_code,
        api.get(f"/api/verdict-reviews/{review.pk}/").status_code,
    ]
    if user is not None:
        client.force_login(user)
    pages = [
        client.get("/games/verdict-reviews/").status_code,
        client.get(f"/games/verdict-reviews/{review.pk}/").status_code,
    ]
    decision = api.post(f"/api/verdict-reviews/{review.pk}/reject/", {}).status_code
    if role == "staff":
        assert answers == [200, 200] and pages == [200, 200] and decision == 200
        listing = client.get("/games/verdict-reviews/?status=rejected").content.decode()
        assert f"Record {review.record_id}" in listing and "Scores" in listing
    else:
        expected = 403 if user is not None else 401
        assert answers == [expected, expected] and decision == expected
        assert pages == ([403, 403] if user is not None else [302, 302])
        review.refresh_from_db()
        assert review.status == VerdictReview.Status.OPEN


def test_an_approved_verdict_that_changes_a_rated_result_replays_the_ratings(
    admin_user, django_capture_on_commit_callbacks
) -> None:
    """The stored verdict named the wrong winner and the game was rated from it: approving the
    engine's verdict rates the game again from the right result, in the same transaction, and
    the live tables equal a recompute."""
    from ratings import services as rating_services
    from ratings.models import PER_GAME_SYSTEMS, RatingChange

    record = stored(selfplay_record(5, ["ana", "bela"]))
    right = record.verdict
    assert right["winner"] is not None
    wrong = copy.deepcopy(right)
    wrong["scores"] = list(reversed(right["scores"]))
    wrong["winner"] = 1 - right["winner"]
    record.verdict = wrong
    record.save(update_fields=["verdict"])
    game = game_for(record)
    rating_services.game_ratings_apply(game_id=game.pk)
    rated = dict(
        RatingChange.objects.filter(game=game, system="lobby").values_list("player_id", "after")
    )
    readjudicate(run_for(since=None, event_id=None, apply=True), workers=1)
    review = VerdictReview.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(admin_user).post(
            f"/api/verdict-reviews/{review.pk}/approve/", {"note": "engine fix"}, format="json"
        )
    assert response.status_code == 200, response.data
    now = dict(
        RatingChange.objects.filter(
            game=game, system="lobby", reason="replay", replaced_by__isnull=True
        ).values_list("player_id", "after")
    )
    winner = game.seats.get(seat=right["winner"]).player_id
    loser = game.seats.get(seat=1 - right["winner"]).player_id
    assert rated[winner] < rated[loser] and now[winner] > now[loser]
    result = rating_services.ratings_recompute(systems=PER_GAME_SYSTEMS)
    assert {s: (r.steps, r.corrected) for s, r in result.systems.items()} == {
        s: (0, 0) for s in result.systems
    }
