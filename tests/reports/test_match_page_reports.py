"""Results without JSON (issue 28): a match's page takes the game file (uploaded or pasted) and,
for a face-to-face game, a score form of each game's scores; the API takes the same. Every way
ends in the one report-and-confirm flow (games/reports)."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import reports
from games.models import GameRecord, GameReport, ReportedGame, ReportKind, ReportStatus
from games.score_sheet import Ending, ScoreSheet
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, selfplay_record
from tournaments import formats, services
from tournaments.models import Match, MatchGame

pytestmark = pytest.mark.django_db


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def game_file(match: Match, seed: int = 31, name: str = "game.json") -> SimpleUploadedFile:
    names = [match.entry_a.player.display_name, match.entry_b.player.display_name]
    return SimpleUploadedFile(
        name, as_body(selfplay_record(seed, names)), content_type="application/json"
    )


def score_form(rows: list[dict], total: int = 3) -> dict:
    """The match page's score form as the browser posts it: `total` rows, the rest blank."""
    data = {
        "games-TOTAL_FORMS": str(total),
        "games-INITIAL_FORMS": "0",
        "games-MIN_NUM_FORMS": "0",
        "games-MAX_NUM_FORMS": str(total),
    }
    for index in range(total):
        row = rows[index] if index < len(rows) else {}
        data[f"games-{index}-score_a"] = str(row.get("score_a", ""))
        data[f"games-{index}-score_b"] = str(row.get("score_b", ""))
        data[f"games-{index}-ending"] = row.get("ending", "completed")
        data[f"games-{index}-conceded_by"] = row.get("conceded_by", "")
    return data


def match_page(user, match: Match) -> str:
    response = web(user).get(reverse("match-page", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


# --- the page -----------------------------------------------------------------------------


def test_a_player_of_the_match_finds_the_file_upload_and_the_score_form(ingrid, match):
    page = match_page(ingrid.user, match)
    assert 'id="match-report"' in page
    assert 'type="file" name="record_file"' in page and "data-drop-zone" in page
    assert 'src="/static/js/drop-zone.js"' in page
    # Where the file comes from, with the format's documentation.
    assert "the game server or app lets you save the game as a file" in page
    assert 'href="/docs/record-format/#' in page
    # Paste stays.
    assert 'name="record"' in page
    # Three planned games, none played: three rows, named after the players.
    assert 'name="games-TOTAL_FORMS" value="3"' in page
    assert "Ingrid&#x27;s score" in page and "Tomas&#x27;s score" in page
    assert "games-2-score_a" in page and "games-3-score_a" not in page


def test_nobody_else_sees_the_forms(match, client):
    outsider = PlayerFactory(with_user=True)
    assert 'id="match-report"' not in match_page(outsider.user, match)
    page = client.get(reverse("match-page", args=[match.pk])).content.decode()
    assert 'id="match-report"' not in page and "drop-zone.js" not in page


# --- the game file --------------------------------------------------------------------------


def test_an_uploaded_file_is_a_report_the_opponent_confirms_from_the_match_page(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = web(ingrid.user).post(
            reverse("match-game-file", args=[match.pk]), {"record_file": game_file(match)}
        )
    record = GameRecord.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("record-detail", args=[record.pk])
    assert record.extensions == {"match": match.pk} and record.status == "valid"
    version = GameReport.objects.get(record=record)
    assert version.status == ReportStatus.OPEN and version.kind == ReportKind.RECORD

    assert 'id="match-sent"' in match_page(ingrid.user, match)
    page = match_page(tomas.user, match)
    assert 'id="match-waiting"' in page
    assert reverse("report-confirm", args=[version.pk]) in page
    # The author cannot confirm their own report.
    refused = web(ingrid.user).post(reverse("report-confirm", args=[version.pk]))
    assert refused.status_code in (400, 403)
    version.refresh_from_db()
    assert version.status == ReportStatus.OPEN
    # The opponent confirms from the match page and is sent back to it.
    back = reverse("match-page", args=[match.pk])
    with django_capture_on_commit_callbacks(execute=True):
        answer = web(tomas.user).post(reverse("report-confirm", args=[version.pk]), {"next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    version.refresh_from_db()
    assert version.status == ReportStatus.CONFIRMED and version.standing
    assert MatchGame.objects.filter(match=match).count() == 1


def test_confirm_goes_back_only_to_this_site(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        web(ingrid.user).post(
            reverse("match-game-file", args=[match.pk]), {"record_file": game_file(match)}
        )
    version = GameReport.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        answer = web(tomas.user).post(
            reverse("report-confirm", args=[version.pk]), {"next": "https://evil.example/"}
        )
    assert answer["Location"] == reverse("reported-game-detail", args=[version.reported_game_id])


def test_a_pasted_record_takes_the_same_way(ingrid, match, django_capture_on_commit_callbacks):
    names = [match.entry_a.player.display_name, match.entry_b.player.display_name]
    with django_capture_on_commit_callbacks(execute=True):
        response = web(ingrid.user).post(
            reverse("match-game-file", args=[match.pk]),
            {"record": json.dumps(selfplay_record(32, names))},
        )
    assert response.status_code == 302
    assert GameReport.objects.get().side_player == ingrid


def test_a_file_that_is_not_a_game_record_is_refused_on_the_match_page(ingrid, match):
    picture = SimpleUploadedFile("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00", "image/png")
    response = web(ingrid.user).post(
        reverse("match-game-file", args=[match.pk]), {"record_file": picture}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="game-file-errors"' in page
    record = GameRecord.objects.get()
    assert record.status == "invalid" and record.error_code == "MALFORMED"
    assert not ReportedGame.objects.exists()


def test_a_json_file_of_another_kind_is_refused(ingrid, match):
    other = SimpleUploadedFile("x.json", b'{"format": "chess-game/1"}', "application/json")
    response = web(ingrid.user).post(
        reverse("match-game-file", args=[match.pk]), {"record_file": other}
    )
    assert response.status_code == 400
    assert 'id="game-file-errors"' in response.content.decode()
    assert not ReportedGame.objects.exists()


def test_a_file_too_big_is_refused_with_413(ingrid, match, settings):
    settings.GAME_RECORD_MAX_BYTES = 1024
    big = SimpleUploadedFile("big.json", b'{"format": "tantrix-game/1"' + b" " * 2000 + b"}")
    response = web(ingrid.user).post(
        reverse("match-game-file", args=[match.pk]), {"record_file": big}
    )
    assert response.status_code == 413
    assert "1024" in response.content.decode().replace("\xa0", "").replace(",", "")
    assert GameRecord.objects.get().error_code == "TOO_LARGE"


def test_a_game_of_another_matchs_players_is_refused(ingrid, match, organiser):
    carla = PlayerFactory(display_name="Carla Other", with_user=True)
    body = as_body(selfplay_record(33, [ingrid.display_name, carla.display_name]))
    upload = SimpleUploadedFile("game.json", body, "application/json")
    response = web(ingrid.user).post(
        reverse("match-game-file", args=[match.pk]), {"record_file": upload}
    )
    assert response.status_code == 400
    assert "must be exactly these two" in response.content.decode()
    assert not ReportedGame.objects.exists()


def test_no_file_and_no_paste_is_a_form_error(ingrid, match):
    response = web(ingrid.user).post(reverse("match-game-file", args=[match.pk]), {})
    assert response.status_code == 400
    assert "Paste a game record or choose a record file." in response.content.decode()
    assert not GameRecord.objects.exists()


def test_only_the_matchs_players_and_staff_may_send(match, organiser):
    outsider = PlayerFactory(with_user=True)
    for name in ("match-game-file", "match-score-form"):
        url = reverse(name, args=[match.pk])
        assert web(outsider.user).post(url, {}).status_code == 403
        assert Client().post(url, {}).status_code == 302  # to the login page
        assert web(outsider.user).post(reverse(name, args=[10**9]), {}).status_code == 404
        # GET has no page of its own: back to the match.
        assert web(organiser).get(url).status_code == 302
    assert not GameRecord.objects.exists()


def test_a_match_of_an_unpublished_championship_is_hidden(ingrid, match, organiser):
    championship = match.event.championship
    services.championship_update(actor=organiser, championship=championship, published=False)
    outsider = PlayerFactory(with_user=True)
    url = reverse("match-score-form", args=[match.pk])
    assert (
        web(outsider.user).post(url, score_form([{"score_a": 20, "score_b": 10}])).status_code
        == 404
    )


# --- the score form -------------------------------------------------------------------------


def test_the_score_form_reports_each_game_and_the_opponent_confirms_them(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    rows = [
        {"score_a": 24, "score_b": 17},
        {"score_a": 12, "score_b": 30, "ending": "resigned", "conceded_by": "a"},
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = web(ingrid.user).post(
            reverse("match-score-form", args=[match.pk]), score_form(rows)
        )
    assert response.status_code == 302
    assert response["Location"] == reverse("match-page", args=[match.pk])
    versions = list(GameReport.objects.order_by("pk"))
    assert [v.kind for v in versions] == [ReportKind.SCORE_SHEET] * 2
    assert all(v.status == ReportStatus.OPEN and v.side_player == ingrid for v in versions)
    assert [v.end_reason for v in versions] == ["completed", "resigned"]
    # One row left: the third planned game.
    assert 'name="games-TOTAL_FORMS" value="1"' in match_page(ingrid.user, match)

    # The author cannot confirm their own game.
    refused = client_for(ingrid.user).post(f"/api/reports/versions/{versions[0].pk}/confirm/")
    assert refused.status_code in (400, 403)
    back = reverse("match-page", args=[match.pk])
    for version in versions:
        with django_capture_on_commit_callbacks(execute=True):
            web(tomas.user).post(reverse("report-confirm", args=[version.pk]), {"next": back})
    games = list(MatchGame.objects.filter(match=match).order_by("number"))
    assert len(games) == 2
    # The TPs follow from the event's table, as for any game (tournaments.formats.result_tps).
    scheme = match.event.tp_scheme
    assert (games[0].base_tps_a, games[0].base_tps_b) == formats.result_tps(24, 17, scheme=scheme)
    assert (games[1].base_tps_a, games[1].base_tps_b) == formats.result_tps(
        12, 30, conceded_by=0, scheme=scheme
    )


def test_a_wrong_row_refuses_the_whole_form(ingrid, match):
    rows = [
        {"score_a": 24, "score_b": 17},
        {"score_a": 99, "score_b": 30},
        {"score_a": 10, "score_b": 10, "ending": "resigned"},
    ]
    response = web(ingrid.user).post(reverse("match-score-form", args=[match.pk]), score_form(rows))
    assert response.status_code == 400
    page = response.content.decode()
    assert "between 0 and 84" in page
    assert "Say which side resigned." in page
    assert not ReportedGame.objects.exists() and not GameRecord.objects.exists()


def test_an_empty_score_form_asks_for_a_game(ingrid, match):
    response = web(ingrid.user).post(reverse("match-score-form", args=[match.pk]), score_form([]))
    assert response.status_code == 400
    assert "Give the scores of at least one game." in response.content.decode()


def test_the_opponents_own_score_form_with_the_same_scores_confirms(
    ingrid, tomas, match, django_capture_on_commit_callbacks
):
    rows = [{"score_a": 24, "score_b": 17}]
    with django_capture_on_commit_callbacks(execute=True):
        web(ingrid.user).post(reverse("match-score-form", args=[match.pk]), score_form(rows))
        web(tomas.user).post(reverse("match-score-form", args=[match.pk]), score_form(rows, 2))
    reported = ReportedGame.objects.get()
    assert reported.state == "standing"
    assert MatchGame.objects.filter(match=match).count() == 1


def test_score_sheets_submit_is_all_or_nothing(ingrid, match, organiser):
    with pytest.raises(ValidationError):
        reports.score_sheets_submit(actor=ingrid.user, extensions={"match": match.pk}, sheets=[])
    sheet = ScoreSheet(score_a=20, score_b=10, ending=Ending.COMPLETED)
    filed = reports.score_sheets_submit(
        actor=ingrid.user, extensions={"match": match.pk}, sheets=[sheet, sheet]
    )
    assert len(filed) == 2 and len({v.reported_game_id for v in filed}) == 2


# --- the API --------------------------------------------------------------------------------


def test_the_api_takes_a_multipart_file_field(ingrid, match, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(ingrid.user).post(
            "/api/games/records/",
            {"file": game_file(match), "match": str(match.pk)},
            format="multipart",
        )
    assert response.status_code == 202, response.data
    record = GameRecord.objects.get(pk=response.data["id"])
    assert record.extensions == {"match": match.pk} and record.status == "valid"
    assert GameReport.objects.get(record=record).status == ReportStatus.OPEN


def test_the_api_refuses_a_bad_file_field_by_field(ingrid, match):
    picture = SimpleUploadedFile("photo.png", b"\x89PNG\r\n\x1a\n", "image/png")
    response = client_for(ingrid.user).post(
        "/api/games/records/", {"file": picture, "match": str(match.pk)}, format="multipart"
    )
    assert response.status_code == 400
    assert response.data["submission"]["code"] == "MALFORMED"
    assert set(response.data) - {"submission"}  # a field says what is wrong


def test_the_api_takes_the_score_form(ingrid, tomas, match, django_capture_on_commit_callbacks):
    body = {
        "match": match.pk,
        "games": [
            {"score_a": 24, "score_b": 17},
            {"score_a": 20, "score_b": 22, "ending": "time", "conceded_by": "b"},
        ],
    }
    response = client_for(ingrid.user).post("/api/games/score-sheets/", body, format="json")
    assert response.status_code == 201, response.data
    assert [r["status_code"] for r in response.data["reports"]] == ["open", "open"]
    first = response.data["reports"][0]["id"]
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client_for(tomas.user).post(f"/api/reports/versions/{first}/confirm/")
    assert confirmed.status_code == 200 and confirmed.data["standing"]


def test_the_api_score_form_answers_400_game_by_game(ingrid, match):
    body = {
        "match": match.pk,
        "games": [{"score_a": 24, "score_b": 17}, {"score_a": "x", "score_b": 17}],
    }
    response = client_for(ingrid.user).post("/api/games/score-sheets/", body, format="json")
    assert response.status_code == 400
    assert response.data["games"][0] == {} and "score_a" in response.data["games"][1]
    empty = client_for(ingrid.user).post(
        "/api/games/score-sheets/", {"match": match.pk, "games": []}, format="json"
    )
    assert empty.status_code == 400 and "games" in empty.data
    assert not ReportedGame.objects.exists()


def test_the_api_score_form_of_someone_elses_match_is_refused(match):
    outsider = PlayerFactory(with_user=True)
    body = {"match": match.pk, "games": [{"score_a": 24, "score_b": 17}]}
    response = client_for(outsider.user).post("/api/games/score-sheets/", body, format="json")
    assert response.status_code in (400, 403)
    assert not ReportedGame.objects.exists()


def test_a_request_over_the_limit_is_not_read_and_answered_413_on_the_page(ingrid, match, settings):
    settings.GAME_RECORD_MAX_BYTES, settings.REQUEST_MAX_BYTES = 1024, 4096
    big = SimpleUploadedFile("big.json", b"{" + b" " * 8000 + b"}", "application/json")
    response = web(ingrid.user).post(
        reverse("match-game-file", args=[match.pk]), {"record_file": big}
    )
    assert response.status_code == 413
    assert 'id="game-file-errors"' in response.content.decode()
    record = GameRecord.objects.get()
    assert record.error_code == "TOO_LARGE" and record.body_size > 8000 and not record.body


def test_the_championships_staff_score_form_stands_at_once(
    organiser, match, django_capture_on_commit_callbacks
):
    rows = [{"score_a": 24, "score_b": 17}, {"score_a": 20, "score_b": 20}]
    with django_capture_on_commit_callbacks(execute=True):
        response = web(organiser).post(
            reverse("match-score-form", args=[match.pk]), score_form(rows)
        )
    assert response.status_code == 302
    assert [v.status for v in GameReport.objects.order_by("pk")] == [ReportStatus.RULED] * 2
    assert MatchGame.objects.filter(match=match).count() == 2
