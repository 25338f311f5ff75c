import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import adjudicate
from games.models import Game, GameRecord, GameReport
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import (
    as_body,
    colour_mismatch_record,
    confirm_open_reports,
    selfplay_record,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", with_user=True)


def post_record(client, body: bytes, **extra):
    return client.generic(
        "POST", "/api/games/records/", body, content_type="application/json", **extra
    )


def test_valid_record_is_adjudicated_and_becomes_a_game(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    record = selfplay_record(7, ["ingrid", "TOMAS"])  # names match case-insensitively
    expected = adjudicate(record)
    client = client_for(ingrid.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_record(client, as_body(record))
    assert response.status_code == 202, response.data
    assert (
        response["Location"] == response.data["url"] == f"/api/games/records/{response.data['id']}/"
    )
    assert response.data["status"] == "pending"
    stored = GameRecord.objects.get(pk=response.data["id"])
    assert stored.status == "valid" and stored.verdict == expected
    assert bytes(stored.body) == as_body(record)
    # A report until Tomas agrees (games/reports); then it is a game.
    assert not Game.objects.exists()
    confirm_open_reports()
    game = Game.objects.get(record=stored)
    seats = list(game.seats.order_by("seat"))
    assert [s.player for s in seats] == [ingrid, tomas]
    assert [s.score for s in seats] == expected["scores"]
    assert game.winner_seat == expected["winner"] and game.context == "casual"
    polled = client.get(response.data["url"]).data
    assert polled["status"] == "valid" and polled["game"] == game.pk
    assert polled["verdict"]["scores"] == expected["scores"]


def test_invalid_record_is_marked_with_code_placement_and_message(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    record = colour_mismatch_record(["Ingrid", "Tomas"])
    with django_capture_on_commit_callbacks(execute=True):
        response = post_record(client_for(ingrid.user), as_body(record))
    assert response.status_code == 202
    stored = GameRecord.objects.get(pk=response.data["id"])
    assert stored.status == "invalid"
    assert stored.error_code == "COLOUR_MISMATCH" and stored.error_placement == 2
    assert "placement 2" in stored.error_message
    assert not Game.objects.exists()


def test_not_json_is_refused_but_stored(ingrid):
    body = b'{"format": "tantrix-game/1", "players": [ oops'
    response = post_record(client_for(ingrid.user), body)
    assert response.status_code == 400
    assert "Not valid JSON" in response.data["record"][0]
    stored = GameRecord.objects.get(pk=response.data["submission"]["id"])
    assert bytes(stored.body) == body
    assert stored.status == "invalid" and stored.error_code == "MALFORMED"


def test_refusal_body_carries_field_errors_and_the_stored_record(ingrid):
    response = post_record(client_for(ingrid.user), b"[1, 2, 3]")
    assert response.status_code == 400
    data = response.json()
    assert data["record"] == ["A game record must be a JSON object."]
    assert data["submission"]["status"] == "invalid"
    assert data["submission"]["code"] == "MALFORMED"
    assert GameRecord.objects.filter(pk=data["submission"]["id"]).exists()


def test_too_large_is_413_and_stored(ingrid, settings):
    settings.GAME_RECORD_MAX_BYTES = 2048
    body = b'{"pad": "' + b"x" * 4000 + b'"}'
    response = post_record(client_for(ingrid.user), body)
    assert response.status_code == 413
    assert "limit is 2,048 bytes" in json.dumps(response.json())
    stored = GameRecord.objects.get()
    assert stored.error_code == "TOO_LARGE" and bytes(stored.body) == body[:2048]
    assert stored.body_size == len(body)


def test_unknown_player_is_named(ingrid):
    record = selfplay_record(3, ["Ingrid", "Nobody Here"])
    response = post_record(client_for(ingrid.user), as_body(record))
    assert response.status_code == 400
    assert '"Nobody Here"' in response.json()["players"][0]
    assert GameRecord.objects.get().error_code == "UNKNOWN_PLAYER"


def test_the_same_player_cannot_take_two_seats(ingrid):
    record = selfplay_record(3, ["Ingrid", "ingrid"])
    response = post_record(client_for(ingrid.user), as_body(record))
    assert response.status_code == 400
    assert "two seats" in response.json()["players"][0]


def test_a_player_submits_only_their_own_games(ingrid, tomas):
    outsider = PlayerFactory(display_name="Csilla", with_user=True)
    response = post_record(
        client_for(outsider.user), as_body(selfplay_record(4, ["Ingrid", "Tomas"]))
    )
    assert response.status_code == 403
    assert "games you played" in json.dumps(response.json())
    assert GameRecord.objects.get().error_code == "NOT_PARTICIPANT"


def test_admins_submit_any_game(admin_user, ingrid, tomas, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_record(
            client_for(admin_user), as_body(selfplay_record(5, ["Ingrid", "Tomas"]))
        )
    assert response.status_code == 202
    assert GameRecord.objects.get().status == "valid"


def test_anonymous_cannot_submit(api_client, ingrid, tomas):
    response = post_record(api_client, as_body(selfplay_record(5, ["Ingrid", "Tomas"])))
    assert response.status_code == 401
    assert not GameRecord.objects.exists()


def test_file_upload(ingrid, tomas, django_capture_on_commit_callbacks):
    upload = SimpleUploadedFile(
        "game.json",
        as_body(selfplay_record(9, ["Ingrid", "Tomas"])),
        content_type="application/json",
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(ingrid.user).post(
            "/api/games/records/", {"record": upload}, format="multipart"
        )
    assert response.status_code == 202, response.data
    assert GameRecord.objects.get().status == "valid"


def test_idempotency_key_returns_the_first_response(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    client = client_for(ingrid.user)
    body = as_body(selfplay_record(11, ["Ingrid", "Tomas"]))
    with django_capture_on_commit_callbacks(execute=True):
        first = post_record(client, body, HTTP_IDEMPOTENCY_KEY="abc-1")
        second = post_record(client, body, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == second.status_code == 202
    assert first.json() == second.json()
    assert second["Idempotent-Replayed"] == "true"
    assert GameRecord.objects.count() == 1 and GameReport.objects.count() == 1
    # The key is per submitter: another user's identical key is a new submission.
    third = post_record(client_for(tomas.user), body, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert third.status_code == 202 and third.data["id"] != first.data["id"]


def test_idempotent_replay_of_a_refusal(ingrid):
    client = client_for(ingrid.user)
    first = post_record(client, b"not json", HTTP_IDEMPOTENCY_KEY="k")
    second = post_record(client, b"not json", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == second.status_code == 400
    assert first.json() == second.json()
    assert GameRecord.objects.count() == 1


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("organiser", 403),
        ("submitter", 200),
        ("opponent", 200),
        ("admin", 200),
    ],
)
def test_record_visibility(
    who,
    expected,
    ingrid,
    tomas,
    organiser,
    admin_user,
    outsider,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_record(
            client_for(ingrid.user), as_body(selfplay_record(12, ["Ingrid", "Tomas"]))
        )
    actor = {
        "anonymous": None,
        "outsider": outsider,
        "organiser": organiser,
        "submitter": ingrid.user,
        "opponent": tomas.user,
        "admin": admin_user,
    }[who]
    assert client_for(actor).get(response.data["url"]).status_code == expected


def test_games_list_filters_and_detail(
    api_client, ingrid, tomas, admin_user, django_capture_on_commit_callbacks
):
    csilla = PlayerFactory(display_name="Csilla")
    with django_capture_on_commit_callbacks(execute=True):
        post_record(client_for(admin_user), as_body(selfplay_record(1, ["Ingrid", "Tomas"])))
        post_record(client_for(admin_user), as_body(selfplay_record(2, ["Csilla", "Tomas"])))
        post_record(
            client_for(admin_user),
            as_body(selfplay_record(3, ["Ingrid", "Tomas", "Csilla"], players="3")),
        )
    assert api_client.get("/api/games/").data["count"] == 3
    assert api_client.get(f"/api/games/?player={ingrid.pk}").data["count"] == 2
    assert api_client.get(f"/api/games/?player={csilla.pk}").data["count"] == 2
    assert api_client.get("/api/games/?context=tournament").data["count"] == 0
    assert api_client.get("/api/games/?played_from=2000-01-01").data["count"] == 3
    assert api_client.get("/api/games/?played_to=2000-01-01").data["count"] == 0
    assert api_client.get("/api/games/?context=bogus").status_code == 400
    game = Game.objects.filter(players_count=3).get()
    detail = api_client.get(f"/api/games/{game.pk}/").data
    assert len(detail["seats"]) == 3 and len(detail["placements"]) == game.placements_count
    assert "placements" not in api_client.get("/api/games/").data["results"][0]


def test_own_records_list(ingrid, tomas, admin_user):
    post_record(client_for(ingrid.user), b"junk")
    post_record(client_for(tomas.user), b"junk")
    assert client_for(ingrid.user).get("/api/games/records/").data["count"] == 1
    assert client_for(admin_user).get("/api/games/records/").data["count"] == 2
