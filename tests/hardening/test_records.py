"""Regression tests for submissions that once answered 500, stored nothing, or poisoned reads."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from games.engine import adjudicate
from games.models import Game, GameRecord
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, confirm_open_reports, selfplay_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", with_user=True)


def web_client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post_json(client, body: bytes, **extra):
    return client.generic(
        "POST", "/api/games/records/", body, content_type="application/json", **extra
    )


def submit(client, body: bytes, capture):
    """Submit, and let the game stand as if the other side agreed (games/reports)."""
    with capture(execute=True):
        response = post_json(client, body)
    confirm_open_reports()
    return response


@pytest.mark.parametrize(
    "played_at",
    ["9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+05:00", "1900-01-01T00:00:00Z"],
)
def test_out_of_range_played_at_is_malformed_and_every_page_still_reads(
    ingrid, tomas, played_at, django_capture_on_commit_callbacks
):
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    record["played_at"] = played_at
    response = submit(client_for(ingrid.user), as_body(record), django_capture_on_commit_callbacks)
    assert response.status_code == 202
    stored = GameRecord.objects.get(pk=response.data["id"])
    assert stored.status == "invalid" and stored.error_code == "MALFORMED"
    assert "played_at" in stored.error_message
    assert not Game.objects.exists()
    assert web_client(ingrid.user).get(f"/games/records/{stored.pk}/").status_code == 200
    assert client_for(ingrid.user).get(f"/api/games/records/{stored.pk}/").status_code == 200
    assert client_for(None).get("/api/games/").status_code == 200
    assert web_client(None).get("/games/").status_code == 200


def test_played_at_in_range_with_an_offset_is_stored_in_utc(
    ingrid, tomas, django_capture_on_commit_callbacks, settings
):
    settings.GAME_RECORD_MAX_AGE_DAYS = 100_000  # an old date, allowed for this test
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    record["played_at"] = "2024-05-01T19:30:00+02:00"
    response = submit(client_for(ingrid.user), as_body(record), django_capture_on_commit_callbacks)
    game = Game.objects.get(record_id=response.data["id"])
    assert game.played_at.isoformat() == "2024-05-01T17:30:00+00:00"


def test_played_at_in_the_future_is_refused_with_a_field_error(ingrid, tomas):
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    record["played_at"] = "2199-01-01T00:00:00Z"
    response = post_json(client_for(ingrid.user), as_body(record))
    assert response.status_code == 400
    assert response.data["played_at"] == ["The game cannot have been played in the future."]
    assert GameRecord.objects.get(pk=response.data["submission"]["id"]).status == "invalid"


def test_integer_too_long_to_read_is_a_stored_refusal(ingrid, tomas):
    body = as_body(selfplay_record(3, ["Ingrid", "Tomas"])).replace(
        b'"rotation": 0', b'"rotation": ' + b"9" * 5000, 1
    )
    response = post_json(client_for(ingrid.user), body)
    assert response.status_code == 400
    assert "number too large" in response.data["record"][0]
    stored = GameRecord.objects.get(pk=response.data["submission"]["id"])
    assert bytes(stored.body) == body and stored.error_code == "MALFORMED"


@pytest.mark.parametrize("name", ["\ud800", "a\u0000b", "x" * 100_000])
def test_player_name_that_cannot_be_a_display_name_is_an_unknown_player(ingrid, name):
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    record["players"][1]["name"] = name
    body = json.dumps(record).encode("utf-8")  # ensure_ascii: the surrogate travels as \ud800
    response = post_json(client_for(ingrid.user), body)
    assert response.status_code == 400
    assert response.data["submission"]["code"] == "UNKNOWN_PLAYER"
    assert len(response.data["players"][0]) < 200  # the name is shown shortened
    assert bytes(GameRecord.objects.get(pk=response.data["submission"]["id"]).body) == body


def test_utf8_byte_order_mark_is_tolerated_end_to_end(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    record = selfplay_record(5, ["Ingrid", "Tomas"])
    body = b"\xef\xbb\xbf" + as_body(record)
    response = submit(client_for(ingrid.user), body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.data
    stored = GameRecord.objects.get(pk=response.data["id"])
    assert stored.status == "valid" and bytes(stored.body) == body
    assert Game.objects.get(record=stored).seats.count() == 2


@override_settings(GAME_RECORD_MAX_BYTES=4096)
def test_json_body_far_over_the_limit_is_stored_in_part_with_size_and_hash(ingrid):
    body = b'{"padding": "' + b"x" * 3_000_000 + b'"}'
    response = post_json(client_for(ingrid.user), body)
    assert response.status_code == 413
    stored = GameRecord.objects.get(pk=response.data["submission"]["id"])
    assert stored.error_code == "TOO_LARGE"
    assert bytes(stored.body) == body[:4096]
    assert stored.body_size == len(body)
    assert stored.body_sha256 == hashlib.sha256(body).hexdigest()


@override_settings(GAME_RECORD_MAX_BYTES=4096)
def test_multipart_upload_over_the_limit_is_kept_in_part(ingrid):
    content = b"y" * 5_000_000
    upload = SimpleUploadedFile("big.json", content, content_type="application/json")
    response = client_for(ingrid.user).post(
        "/api/games/records/", {"record": upload}, format="multipart"
    )
    assert response.status_code == 413
    stored = GameRecord.objects.get(pk=response.data["submission"]["id"])
    assert len(bytes(stored.body)) == 4096 and stored.body_size == len(content)
    assert stored.body_sha256 == hashlib.sha256(content).hexdigest()
    page = web_client(ingrid.user).get(f"/games/records/{stored.pk}/")
    assert page.status_code == 200 and len(page.content) < 100_000


@override_settings(GAME_RECORD_MAX_BYTES=4096, REQUEST_MAX_BYTES=65_536)
def test_body_over_the_request_ceiling_is_not_read_but_still_recorded(ingrid):
    body = b"z" * 200_000
    response = post_json(client_for(ingrid.user), body)
    assert response.status_code == 413
    stored = GameRecord.objects.get(pk=response.data["submission"]["id"])
    assert bytes(stored.body) == body[:4096]
    assert stored.body_size == len(body) and stored.body_sha256 == ""


@override_settings(REQUEST_MAX_BYTES=65_536)
def test_other_endpoints_refuse_an_oversized_body_before_parsing_it(api_client):
    body = json.dumps({"username": "x", "password": "y" * 200_000})
    response = api_client.generic("POST", "/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 413
    assert "limit" in response.json()["detail"]


@override_settings(GAME_RECORD_MAX_BYTES=4096, REQUEST_MAX_BYTES=65_536)
def test_web_submit_over_the_ceiling_answers_413_and_stores_the_attempt(ingrid):
    client = web_client(ingrid.user)
    upload = SimpleUploadedFile("big.json", b"q" * 200_000, content_type="application/json")
    response = client.post("/games/submit/", {"record_file": upload})
    assert response.status_code == 413
    stored = GameRecord.objects.get()
    assert stored.error_code == "TOO_LARGE" and stored.body_size > 200_000
    assert "larger" in response.content.decode() or "limit" in response.content.decode()


def test_huge_coordinates_are_a_valid_game_whose_page_draws(
    ingrid, tomas, django_capture_on_commit_callbacks
):
    record = selfplay_record(9, ["Ingrid", "Tomas"])
    shift = 10**400
    for placement in record["placements"]:
        placement["q"] += shift
    assert adjudicate(record)["valid"] is True
    response = submit(client_for(ingrid.user), as_body(record), django_capture_on_commit_callbacks)
    game = Game.objects.get(record_id=response.data["id"])
    page = client_for(None).get(f"/games/{game.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    view_box = html.split('viewBox="', 1)[1].split('"', 1)[0]
    assert all(abs(float(v)) < 10_000 for v in view_box.split())
    assert client_for(None).get(f"/api/games/{game.pk}/").status_code == 200
