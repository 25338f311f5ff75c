import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, GameRecord
from tests.factories import PlayerFactory
from tests.games.helpers import colour_mismatch_record, confirm_open_reports, selfplay_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(db):
    return (
        PlayerFactory(display_name="Ingrid", with_user=True),
        PlayerFactory(display_name="Tomas", with_user=True),
    )


@pytest.mark.django_db(transaction=True)
def test_import_records_reports_valid_and_invalid(pair, tmp_path):
    """Committed for real, as the command runs, so each record is adjudicated (eagerly here)."""
    folder = tmp_path / "records"
    folder.mkdir()
    for seed in range(3):
        (folder / f"g{seed}.json").write_text(
            json.dumps(selfplay_record(seed, ["Ingrid", "Tomas"]))
        )
    (folder / "bad.json").write_text(json.dumps(colour_mismatch_record(["Ingrid", "Tomas"])))
    (folder / "junk.json").write_bytes(b"\xff\xfe not a record")
    out, err = StringIO(), StringIO()
    call_command("import_records", str(folder), "--wait", "5", stdout=out, stderr=err)
    assert (
        "5 records: 3 valid, 2 invalid (1 refused at submission), 0 still pending" in out.getvalue()
    )
    assert "junk.json: refused" in err.getvalue()
    assert GameRecord.objects.filter(source="import").count() == 5
    assert Game.objects.count() == 3


def test_import_as_a_player_checks_participation(pair, tmp_path):
    outsider = PlayerFactory(display_name="Csilla", with_user=True)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(selfplay_record(1, ["Ingrid", "Tomas"])))
    out = StringIO()
    call_command(
        "import_records",
        str(path),
        "--as",
        outsider.user.username,
        "--wait",
        "0",
        stdout=out,
        stderr=StringIO(),
    )
    assert GameRecord.objects.get().error_code == "NOT_PARTICIPANT"


def test_import_errors_are_clear(tmp_path):
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("import_records", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="No user is named 'ghost'"):
        (tmp_path / "a.json").write_text("{}")
        call_command("import_records", str(tmp_path / "a.json"), "--as", "ghost")


def test_submit_page_paste_and_record_page(client, pair, django_capture_on_commit_callbacks):
    ingrid, _ = pair
    client.force_login(ingrid.user)
    assert client.get("/games/submit/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/games/submit/", {"record": json.dumps(selfplay_record(5, ["Ingrid", "Tomas"]))}
        )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    # Valid, and a report until Tomas agrees (games/reports): no game yet.
    assert "Valid" in page and "waiting for confirmation" in page
    confirm_open_reports()
    page = client.get(response["Location"]).content.decode()
    assert "See the game" in page
    game = Game.objects.get()
    game_page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<svg" in game_page and "Ingrid" in game_page


def test_submit_page_shows_refusals(client, pair):
    ingrid, _ = pair
    client.force_login(ingrid.user)
    response = client.post(
        "/games/submit/", {"record": json.dumps(selfplay_record(5, ["Ingrid", "Nobody"]))}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "No registered player is named &quot;Nobody&quot;" in html
    assert "was refused" in html


def test_submit_page_needs_login(client):
    response = client.get("/games/submit/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_record_page_is_private(client, pair, other_player):
    ingrid, _ = pair
    client.force_login(ingrid.user)
    client.post("/games/submit/", {"record": "not json"})
    record = GameRecord.objects.get()
    client.force_login(other_player.user)
    assert client.get(f"/games/records/{record.pk}/").status_code == 403
