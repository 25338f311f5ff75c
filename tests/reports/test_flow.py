"""A result stands only when both sides agree, or a controller rules (games/reports)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.conf import settings
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from games.models import (
    Game,
    GameRecord,
    GameReport,
    ReportedGame,
    ReportStatus,
    ResultState,
)
from games.tasks import confirm_overdue_reports
from players.models import AuditEntry, Notice
from ratings.models import RatingChange
from tests.conftest import client_for
from tests.games.helpers import as_body, selfplay_record
from tournaments.models import MatchGame

pytestmark = pytest.mark.django_db


def post_record(user, body: bytes, match=None):
    url = "/api/games/records/" + (f"?match={match.pk}" if match else "")
    return client_for(user).generic("POST", url, body, content_type="application/json")


def submit(capture, user, body: bytes, match=None):
    with capture(execute=True):
        response = post_record(user, body, match)
    assert response.status_code == 202, response.data
    return GameRecord.objects.get(pk=response.data["id"])


def test_a_casual_game_reported_by_one_player_is_not_rated_until_confirmed(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    record = submit(
        django_capture_on_commit_callbacks,
        ingrid.user,
        as_body(selfplay_record(21, ["Ingrid", "Tomas"])),
    )
    assert record.status == "valid"
    assert not Game.objects.exists() and not RatingChange.objects.exists()
    version = GameReport.objects.get(record=record)
    assert version.status == ReportStatus.OPEN and version.side_player == ingrid
    assert version.reported_game.state == ResultState.REPORTED
    # Tomas is told (a notice and an email) and finds it waiting for him.
    assert Notice.objects.filter(user=tomas.user, read=False).count() == 1
    assert [m.to for m in mail.outbox] == [[tomas.user.email]]
    waiting = client_for(tomas.user).get("/api/reports/waiting/").data["waiting"]
    assert [w["id"] for w in waiting] == [version.pk]
    assert client_for(ingrid.user).get("/api/reports/waiting/").data["waiting"] == []
    page = client_for(tomas.user).get(f"/players/{tomas.pk}/")
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(tomas.user).post(f"/api/reports/versions/{version.pk}/confirm/")
    assert response.status_code == 200, response.data
    assert response.data["status_code"] == "confirmed" and response.data["standing"]
    game = Game.objects.get()
    assert game.record_id == record.pk
    assert RatingChange.objects.filter(game=game, system="lobby").count() == 2
    assert page.status_code == 200


def test_the_same_record_from_both_players_is_one_game(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    document = selfplay_record(22, [ingrid.display_name, tomas.display_name])
    first = submit(django_capture_on_commit_callbacks, ingrid.user, as_body(document), match)
    assert not MatchGame.objects.exists()
    # Tomas sends the same game: other key order, other whitespace, other case in the names.
    reordered = {key: document[key] for key in reversed(list(document))}
    reordered["players"] = [
        {"colour": seat["colour"], "name": seat["name"].upper()} for seat in document["players"]
    ]
    body = json.dumps(reordered, indent=3, sort_keys=True).encode()
    second = submit(django_capture_on_commit_callbacks, tomas.user, body, match)
    assert second.status == "valid"
    reported = ReportedGame.objects.get()
    assert [v.status for v in reported.versions.order_by("number")] == [
        ReportStatus.CONFIRMED,
        ReportStatus.CONFIRMATION,
    ]
    assert reported.state == ResultState.STANDING
    assert Game.objects.count() == 1 and Game.objects.get().record_id == first.pk
    assert MatchGame.objects.filter(match=match).count() == 1
    # Sending it a third time changes nothing.
    submit(django_capture_on_commit_callbacks, tomas.user, as_body(document), match)
    assert Game.objects.count() == 1 and MatchGame.objects.count() == 1


def test_the_database_holds_the_invariants(ingrid, tomas, django_capture_on_commit_callbacks):
    record = submit(
        django_capture_on_commit_callbacks,
        ingrid.user,
        as_body(selfplay_record(23, ["Ingrid", "Tomas"])),
    )
    version = GameReport.objects.get(record=record)
    reported = version.reported_game
    with pytest.raises(IntegrityError), transaction.atomic():
        ReportedGame.objects.create(
            fingerprint=reported.fingerprint, seat_players=[], played_at=timezone.now()
        )
    with pytest.raises(IntegrityError), transaction.atomic():  # one open report per side
        GameReport.objects.create(
            reported_game=reported,
            number=9,
            kind="record",
            role="side",
            side_player=ingrid,
            status=ReportStatus.OPEN,
        )
    GameReport.objects.filter(pk=version.pk).update(standing=True)
    with pytest.raises(IntegrityError), transaction.atomic():  # one standing result
        GameReport.objects.create(
            reported_game=reported,
            number=10,
            kind="ruling",
            role="staff",
            status=ReportStatus.RULED,
            standing=True,
        )


def _sides_of(match, ingrid_score: int, tomas_score: int) -> dict:
    """A score sheet's fields: side A is the match's first entry."""
    if match.entry_a.player.display_name == "Ingrid":
        return {"score_a": ingrid_score, "score_b": tomas_score}
    return {"score_a": tomas_score, "score_b": ingrid_score}


def test_a_dispute_is_ruled_by_a_controller_and_reopened_by_an_organiser(
    ingrid, tomas, match, controller, organiser, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    record = submit(capture, ingrid.user, as_body(selfplay_record(24, ["Ingrid", "Tomas"])), match)
    version = GameReport.objects.get(record=record)
    ingrid_score, tomas_score = version.scores  # seat 0 is Ingrid in the record
    # Tomas's score sheet of the game contradicts the record: the game goes to the controllers.
    with capture(execute=True):
        response = client_for(tomas.user).post(
            "/api/games/score-sheets/",
            {"match": match.pk, **_sides_of(match, ingrid_score, tomas_score + 30)},
            format="json",
        )
    assert response.status_code == 201, response.data
    assert response.data["status_code"] == "disputed"
    reported = version.reported_game
    reported.refresh_from_db()
    assert reported.state == ResultState.DISPUTED and reported.versions.count() == 2
    assert Notice.objects.filter(user=controller).exists()
    to_rule = client_for(controller).get("/api/reports/waiting/").data["to_rule"]
    assert [g["reported_game"] for g in to_rule] == [reported.pk]
    # A ruling needs a reason, and names a version that exists.
    bad = client_for(controller).post(
        f"/api/reports/{reported.pk}/rule/", {"version": 99, "reason": ""}, format="json"
    )
    assert bad.status_code == 400 and "reason" in bad.data
    with capture(execute=True):
        response = client_for(controller).post(
            f"/api/reports/{reported.pk}/rule/",
            {"version": 1, "reason": "The record."},
            format="json",
        )
    assert response.status_code == 201, response.data
    reported.refresh_from_db()
    assert reported.state == ResultState.STANDING and reported.game_id is not None
    counted = MatchGame.objects.get(game_id=reported.game_id)
    first_tps = (counted.tps_a, counted.tps_b)
    assert AuditEntry.objects.filter(
        action="report_rule", championship_id=match.event.championship_id
    ).exists()
    # Ruled: no second ruling until an organiser reopens it; a controller may not reopen.
    again = client_for(controller).post(
        f"/api/reports/{reported.pk}/rule/", {"version": 2, "reason": "x"}, format="json"
    )
    assert again.status_code == 400
    refused = client_for(controller).post(
        f"/api/reports/{reported.pk}/reopen/", {"reason": "look again"}, format="json"
    )
    assert refused.status_code == 403
    with capture(execute=True):
        response = client_for(organiser).post(
            f"/api/reports/{reported.pk}/reopen/",
            {"reason": "The sheet was signed by both."},
            format="json",
        )
    assert response.status_code == 200, response.data
    assert response.data["state_code"] == "disputed"
    # The ruled game keeps counting until the new ruling, which recounts it.
    assert MatchGame.objects.filter(pk=counted.pk).exists()
    with capture(execute=True):
        response = client_for(controller).post(
            f"/api/reports/{reported.pk}/rule/",
            {"version": 2, "reason": "The signed sheet."},
            format="json",
        )
    assert response.status_code == 201, response.data
    game = Game.objects.get(pk=reported.game_id)
    assert [s.score for s in game.seats.order_by("seat")] == [ingrid_score, tomas_score + 30]
    counted.refresh_from_db()
    assert counted.tps_a + counted.tps_b == 20 and (counted.tps_a, counted.tps_b) != first_tps
    history = client_for(ingrid.user).get(f"/api/reports/{reported.pk}/").data
    assert [v["status_code"] for v in history["versions"]] == [
        "disputed",
        "disputed",
        "ruled",
        "ruled",
    ]
    assert [v["standing"] for v in history["versions"]] == [False, False, False, True]
    assert AuditEntry.objects.filter(action="report_reopen").count() == 1
    web = Client()
    web.force_login(ingrid.user)
    page = web.get(f"/games/reports/{reported.pk}/")
    assert page.status_code == 200 and "The signed sheet." in page.content.decode()


def test_a_disputed_casual_game_goes_to_staff_who_may_void_it(
    ingrid, tomas, admin_user, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    record = submit(capture, ingrid.user, as_body(selfplay_record(27, ["Ingrid", "Tomas"])))
    version = GameReport.objects.get(record=record)
    empty = client_for(tomas.user).post(f"/api/reports/versions/{version.pk}/dispute/", {})
    assert empty.status_code == 400 and "reason" in empty.data
    with capture(execute=True):
        response = client_for(tomas.user).post(
            f"/api/reports/versions/{version.pk}/dispute/", {"reason": "We never played."}
        )
    assert response.status_code == 200 and response.data["status_code"] == "disputed"
    assert Notice.objects.filter(user=admin_user).exists()
    with capture(execute=True):
        response = client_for(admin_user).post(
            f"/api/reports/{version.reported_game_id}/rule/",
            {"version": None, "reason": "No such game."},
            format="json",
        )
    assert response.status_code == 201, response.data
    assert ReportedGame.objects.get().state == ResultState.VOID
    assert not Game.objects.exists() and not RatingChange.objects.exists()


def test_an_unanswered_report_is_confirmed_by_the_beat_task(
    ingrid, tomas, ghost, organiser, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    assert settings.GAME_REPORT_CONFIRM_HOURS == 48
    assert (
        settings.CELERY_BEAT_SCHEDULE["games-confirm-overdue-reports"]["task"]
        == "games.tasks.confirm_overdue_reports"
    )
    played = (timezone.now() - dt.timedelta(days=3)).replace(microsecond=0)
    document = selfplay_record(25, ["Ingrid", "Tomas"])
    document["played_at"] = played.isoformat()
    record = submit(capture, ingrid.user, as_body(document))
    against_ghost = submit(capture, ingrid.user, as_body(selfplay_record(26, ["Ingrid", "Ghost"])))
    GameReport.objects.update(created=timezone.now() - dt.timedelta(hours=47))
    with capture(execute=True):
        assert confirm_overdue_reports.delay().get() == 0
    GameReport.objects.update(created=timezone.now() - dt.timedelta(hours=49))
    with capture(execute=True):
        assert confirm_overdue_reports.delay().get() == 1
    version = GameReport.objects.get(record=record)
    assert version.status == ReportStatus.AUTO_CONFIRMED and version.standing
    assert "automatically" in version.answer_note
    game = Game.objects.get(record=record)
    # Confirmed late, it keeps its played time (its place in the rating order).
    assert game.played_at == played
    assert RatingChange.objects.filter(game=game).exists()
    assert Notice.objects.filter(user=tomas.user, text__contains="automatically").exists()
    # Against a player without an account: only an organiser or staff let it stand.
    ghost_version = GameReport.objects.get(record=against_ghost)
    assert ghost_version.status == ReportStatus.OPEN
    assert (
        client_for(ingrid.user)
        .post(f"/api/reports/versions/{ghost_version.pk}/confirm/")
        .status_code
        == 403
    )
    with capture(execute=True):
        response = client_for(organiser).post(f"/api/reports/versions/{ghost_version.pk}/confirm/")
    assert response.status_code == 200, response.data
    assert Game.objects.filter(record=against_ghost).exists()
    assert AuditEntry.objects.filter(action="report_confirm_for").exists()


def test_score_sheets_confirm_or_contradict_each_other(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    url = "/api/games/score-sheets/"
    bad = client_for(ingrid.user).post(
        url, {"match": match.pk, "score_a": 85, "score_b": "x"}, format="json"
    )
    assert bad.status_code == 400 and set(bad.data) == {"score_a", "score_b"}
    assert not GameRecord.objects.exists()
    with capture(execute=True):
        first = client_for(ingrid.user).post(
            url,
            {"match": match.pk, "score_a": 20, "score_b": 14, "minutes_a": 12},
            format="json",
        )
    assert first.status_code == 201, first.data
    assert not MatchGame.objects.exists()
    with capture(execute=True):
        second = client_for(tomas.user).post(
            url, {"match": match.pk, "score_a": 20, "score_b": 14}, format="json"
        )
    assert second.status_code == 201 and second.data["status_code"] == "confirmation"
    counted = MatchGame.objects.get(match=match)
    assert counted.tps_a + counted.tps_b == 20 and counted.tps_a > counted.tps_b
    with capture(execute=True):
        client_for(ingrid.user).post(
            url, {"match": match.pk, "score_a": 10, "score_b": 30}, format="json"
        )
        contradiction = client_for(tomas.user).post(
            url, {"match": match.pk, "score_a": 30, "score_b": 10}, format="json"
        )
    assert contradiction.data["status_code"] == "disputed"
    assert ReportedGame.objects.filter(state=ResultState.DISPUTED).count() == 1
    assert MatchGame.objects.filter(match=match).count() == 1


def test_games_no_rating_takes_and_staff_submissions_stand_at_once(
    ingrid, tomas, ghost, admin_user, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    three = submit(
        capture, ingrid.user, as_body(selfplay_record(28, ["Ingrid", "Tomas", "Ghost"], "3"))
    )
    assert GameReport.objects.get(record=three).status == ReportStatus.CONFIRMED
    assert Game.objects.filter(record=three).exists()
    ruled = submit(capture, admin_user, as_body(selfplay_record(29, ["Ingrid", "Tomas"])))
    version = GameReport.objects.get(record=ruled)
    assert version.status == ReportStatus.RULED and version.role == "staff" and version.standing
    assert Game.objects.filter(record=ruled).exists()
    assert not Notice.objects.filter(user=tomas.user).exists()


def test_a_new_ruling_on_a_rated_result_replays_the_ratings(
    ingrid, tomas, match, controller, organiser, django_capture_on_commit_callbacks
):
    """A result that stood and was rated, reopened and ruled the other way: the game is rated
    again from its new result in its place, the later game is recalculated from it, and the live
    tables equal a recompute from scratch."""
    from ratings import services as rating_services
    from ratings.models import PER_GAME_SYSTEMS, Rating

    capture = django_capture_on_commit_callbacks
    url = "/api/games/score-sheets/"
    with capture(execute=True):
        client_for(ingrid.user).post(
            url, {"match": match.pk, **_sides_of(match, 30, 10)}, format="json"
        )
        disputed = client_for(tomas.user).post(
            url, {"match": match.pk, **_sides_of(match, 10, 30)}, format="json"
        )
    assert disputed.data["status_code"] == "disputed"
    reported = ReportedGame.objects.get()
    with capture(execute=True):
        ruled = client_for(controller).post(
            f"/api/reports/{reported.pk}/rule/",
            {"version": 1, "reason": "Ingrid's sheet."},
            format="json",
        )
    assert ruled.status_code == 201, ruled.data
    reported.refresh_from_db()
    first_game = reported.game_id
    # A later game of the same two players, agreed by both: it is rated from the first result.
    with capture(execute=True):
        client_for(ingrid.user).post(
            url, {"match": match.pk, **_sides_of(match, 18, 12)}, format="json"
        )
        client_for(tomas.user).post(
            url, {"match": match.pk, **_sides_of(match, 18, 12)}, format="json"
        )
    later_game = Game.objects.exclude(pk=first_game).get().pk

    def lobby(player) -> float:
        return Rating.objects.get(player=player, system="lobby").value

    assert lobby(ingrid) > lobby(tomas)
    before = (lobby(ingrid), lobby(tomas))
    assert RatingChange.objects.filter(game_id=later_game, system="lobby").count() == 2

    with capture(execute=True):
        reopened = client_for(organiser).post(
            f"/api/reports/{reported.pk}/reopen/",
            {"reason": "Tomas's sheet is signed."},
            format="json",
        )
        assert reopened.status_code == 200, reopened.data
        ruled = client_for(controller).post(
            f"/api/reports/{reported.pk}/rule/",
            {"version": 2, "reason": "The signed sheet."},
            format="json",
        )
    assert ruled.status_code == 201, ruled.data
    game = Game.objects.get(pk=first_game)
    assert game.seats.get(player=tomas).score == 30
    # The first game is computed again from Tomas's win, and the later game from there.
    replayed = RatingChange.objects.filter(reason="replay", system="lobby")
    assert set(replayed.values_list("game_id", flat=True)) == {first_game, later_game}
    after = (lobby(ingrid), lobby(tomas))
    assert after != before and after[0] < before[0] and after[1] > before[1]
    assert AuditEntry.objects.filter(action="result_replay").count() == 1
    result = rating_services.ratings_recompute(systems=PER_GAME_SYSTEMS)
    assert {s: (r.steps, r.corrected) for s, r in result.systems.items()} == {
        s: (0, 0) for s in result.systems
    }
    assert (lobby(ingrid), lobby(tomas)) == after


def test_the_opponents_notice_and_email_link_to_the_reported_game(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    """A notice names what it is about; the page, the API and the email link to its page."""
    record = submit(
        django_capture_on_commit_callbacks,
        ingrid.user,
        as_body(selfplay_record(23, ["Ingrid", "Tomas"])),
    )
    page = f"/games/reports/{GameReport.objects.get(record=record).reported_game_id}/"
    assert [n["url"] for n in client_for(tomas.user).get("/api/notices/").data["results"]] == [page]
    assert mail.outbox[0].body.endswith(f"\n\n{page}")
    web = Client()
    web.force_login(tomas.user)
    assert f'<a href="{page}">' in web.get("/players/notices/").content.decode()
    assert web.get(page).status_code == 200
