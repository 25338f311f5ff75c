"""The submission service answers in domain terms; the API layer alone picks statuses and links."""

import json

import pytest
from django.core.exceptions import PermissionDenied

from games import services
from games.engine import jsonio
from games.hooks import SubmissionExtension, _extensions, register_submission_extension
from games.models import GameRecord
from games.records import http
from games.records.refusals import Refusal, RefusalCode
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, selfplay_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", with_user=True)


@pytest.fixture
def refereed_extension():
    """A `referee` field whose validator refuses one value as invalid, another as forbidden."""

    def validate(*, actor, value, seat_players):
        from django.core.exceptions import ValidationError

        if value == "bad":
            raise ValidationError("No such referee.")
        if value == "forbidden":
            raise PermissionDenied("You may not name a referee.")
        return value

    register_submission_extension(SubmissionExtension(name="referee", validate=validate))
    yield
    _extensions.pop("referee", None)


def test_an_accepted_submission_carries_no_refusal(ingrid, tomas):
    submission = services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(1, ["Ingrid", "Tomas"]))
    )
    assert submission.accepted and submission.refusal is None
    assert submission.record.status == "pending"


@pytest.mark.parametrize(
    ("body", "names", "code", "field", "forbidden"),
    [
        (b"", None, RefusalCode.MALFORMED, "record", False),
        (b"[1]", None, RefusalCode.MALFORMED, "record", False),
        (None, ["Ingrid", "Nobody"], RefusalCode.UNKNOWN_PLAYER, "players", False),
        (None, ["Ingrid", "ingrid"], RefusalCode.DUPLICATE_PLAYER, "players", False),
        (None, ["Tomas", "Csilla"], RefusalCode.NOT_PARTICIPANT, "detail", True),
    ],
)
def test_refusals_are_domain_results(ingrid, tomas, body, names, code, field, forbidden):
    PlayerFactory(display_name="Csilla")
    if body is None:
        body = as_body(selfplay_record(2, names))
    submission = services.record_submit(actor=ingrid.user, body=body)
    refusal = submission.refusal
    assert not submission.accepted
    assert (refusal.code, refusal.forbidden) == (code, forbidden)
    assert list(refusal.errors) == [field] and refusal.errors[field][0]
    record = GameRecord.objects.get(pk=submission.record.pk)
    assert record.status == "invalid" and record.error_code == code
    assert record.error_message == refusal.message


def test_too_large_is_a_refusal_with_the_sizes(ingrid, settings):
    settings.GAME_RECORD_MAX_BYTES = 100
    submission = services.record_submit(actor=ingrid.user, body=b"{" + b" " * 200 + b"}")
    assert submission.refusal.code == RefusalCode.TOO_LARGE
    assert "202 bytes; the limit is 100 bytes" in submission.refusal.errors["record"][0]


def test_extension_refusals_say_whether_the_actor_is_forbidden(ingrid, tomas, refereed_extension):
    body = as_body(selfplay_record(3, ["Ingrid", "Tomas"]))
    bad = services.record_submit(actor=ingrid.user, body=body, extensions={"referee": "bad"})
    assert (bad.refusal.code, bad.refusal.forbidden) == (RefusalCode.REJECTED, False)
    assert bad.refusal.errors == {"referee": ["No such referee."]}
    forbidden = services.record_submit(
        actor=ingrid.user, body=body, extensions={"referee": "forbidden"}
    )
    assert (forbidden.refusal.code, forbidden.refusal.forbidden) == (RefusalCode.REJECTED, True)
    unknown = services.record_submit(actor=ingrid.user, body=body, extensions={"colour": "R"})
    assert unknown.refusal.code == RefusalCode.UNKNOWN_FIELD


@pytest.mark.parametrize(
    ("refusal", "expected"),
    [
        (Refusal(RefusalCode.TOO_LARGE, {"record": ["x"]}), 413),
        (Refusal(RefusalCode.MALFORMED, {"record": ["x"]}), 400),
        (Refusal(RefusalCode.UNKNOWN_PLAYER, {"players": ["x"]}), 400),
        (Refusal(RefusalCode.DUPLICATE_PLAYER, {"players": ["x"]}), 400),
        (Refusal(RefusalCode.UNKNOWN_FIELD, {"f": ["x"]}), 400),
        (Refusal(RefusalCode.REJECTED, {"match": ["x"]}), 400),
        (Refusal(RefusalCode.REJECTED, {"match": ["x"]}, forbidden=True), 403),
        (Refusal(RefusalCode.NOT_PARTICIPANT, {"detail": ["x"]}, forbidden=True), 403),
    ],
)
def test_the_api_maps_refusals_to_statuses(refusal, expected):
    assert http.refusal_status(refusal) == expected


def test_adjudication_parses_the_body_once(ingrid, tomas, monkeypatch):
    """One read of the record, by the engine's reader, serves the verdict and the Game row."""
    body = as_body(selfplay_record(6, ["Ingrid", "Tomas"]))
    submission = services.record_submit(actor=ingrid.user, body=body)
    parsed = []
    real_loads = json.loads

    def counting(text, *args, **kwargs):
        if text == body.decode():  # the database's JSON columns are read with json.loads too
            parsed.append(text)
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(jsonio.json, "loads", counting)
    assert services.record_adjudicate(record_id=submission.record.pk) == "valid"
    assert len(parsed) == 1


def test_a_refused_record_still_names_the_players_it_seated(ingrid, tomas):
    """Refused after its players were resolved, the record keeps them: they may see it."""
    outsider = PlayerFactory(display_name="Csilla", with_user=True)
    submission = services.record_submit(
        actor=outsider.user, body=as_body(selfplay_record(7, ["Ingrid", "Tomas"]))
    )
    assert submission.refusal.code == RefusalCode.NOT_PARTICIPANT
    record = GameRecord.objects.get(pk=submission.record.pk)
    assert record.seat_players == [ingrid.pk, tomas.pk]
    assert client_for(tomas.user).get(f"/api/games/records/{record.pk}/").status_code == 200
