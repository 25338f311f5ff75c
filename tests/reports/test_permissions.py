"""Who may use every report endpoint: reporter, opponent, controller, organiser, outsider and
anonymous (API and web)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import GameRecord, GameReport
from tests.conftest import client_for
from tests.games.helpers import as_body, selfplay_record

pytestmark = pytest.mark.django_db

ROLES = ["reporter", "opponent", "controller", "organiser", "outsider", "anonymous"]
DENIED = {401, 403}


@pytest.fixture
def world(ingrid, tomas, controller, organiser, outsider, match):
    return {
        "reporter": ingrid.user,
        "opponent": tomas.user,
        "controller": controller,
        "organiser": organiser,
        "outsider": outsider,
        "anonymous": None,
    }


@pytest.fixture
def report(ingrid, match, django_capture_on_commit_callbacks) -> GameReport:
    """Ingrid's record of a game of her match with Tomas, waiting for Tomas."""
    body = as_body(selfplay_record(31, ["Ingrid", "Tomas"]))
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(ingrid.user).generic(
            "POST", f"/api/games/records/?match={match.pk}", body, content_type="application/json"
        )
    assert response.status_code == 202
    return GameReport.objects.get(record=GameRecord.objects.get(pk=response.data["id"]))


def _get_as(world, role: str, url: str):
    """GET as `role`: None for anonymous (after checking it is refused), else the answer."""
    response = client_for(world[role]).get(url)
    if role == "anonymous":
        assert response.status_code in DENIED
        return None
    assert response.status_code == 200
    return response


def _expect(role: str, allowed: dict[str, int], hidden: int = 404) -> set[int]:
    if role == "anonymous":
        return DENIED
    if role == "outsider":
        return {hidden}
    return {allowed.get(role, 403)}


@pytest.mark.parametrize("role", ROLES)
def test_reading_a_reported_game(world, report, role):
    response = client_for(world[role]).get(f"/api/reports/{report.reported_game_id}/")
    visible = {r: 200 for r in ("reporter", "opponent", "controller", "organiser")}
    assert response.status_code in _expect(role, visible)


@pytest.mark.parametrize("role", ROLES)
def test_the_waiting_list(world, report, role):
    response = _get_as(world, role, "/api/reports/waiting/")
    if response is None:
        return
    waiting = [w["id"] for w in response.data["waiting"]]
    assert waiting == ([report.pk] if role == "opponent" else [])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("answer", ["confirm", "dispute"])
def test_answering_a_report(world, report, role, answer, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(world[role]).post(
            f"/api/reports/versions/{report.pk}/{answer}/", {"reason": "Not so."}
        )
    assert response.status_code in _expect(role, {"opponent": 200})
    report.refresh_from_db()
    assert (report.status != "open") == (role == "opponent")


@pytest.mark.parametrize("role", ROLES)
def test_ruling(world, report, role, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(world[role]).post(
            f"/api/reports/{report.reported_game_id}/rule/",
            {"version": 1, "reason": "Seen the record."},
            format="json",
        )
    assert response.status_code in _expect(role, {"controller": 201, "organiser": 201})


@pytest.mark.parametrize("role", ROLES)
def test_reopening(world, report, role, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ruled = client_for(world["controller"]).post(
            f"/api/reports/{report.reported_game_id}/rule/",
            {"version": 1, "reason": "Seen the record."},
            format="json",
        )
    assert ruled.status_code == 201
    response = client_for(world[role]).post(
        f"/api/reports/{report.reported_game_id}/reopen/", {"reason": "Again."}, format="json"
    )
    assert response.status_code in _expect(role, {"organiser": 200})


@pytest.mark.parametrize("role", ROLES)
def test_score_sheets(world, match, role, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(world[role]).post(
            "/api/games/score-sheets/",
            {"match": match.pk, "score_a": 20, "score_b": 11},
            format="json",
        )
    expected = {"reporter": 201, "opponent": 201, "controller": 201, "organiser": 201}
    # To an outsider the match answers as a missing one would (a field error, no leak).
    assert response.status_code in _expect(role, expected, hidden=400)


@pytest.mark.parametrize("role", ROLES)
def test_notices(world, report, role):
    response = _get_as(world, role, "/api/notices/")
    if response is None:
        return
    texts = (
        [n["text"] for n in response.data["results"]]
        if isinstance(response.data, dict)
        else [n["text"] for n in response.data]
    )
    assert bool(texts) == (role == "opponent")
    marked = client_for(world[role]).post("/api/notices/read/", {}, format="json")
    assert marked.status_code == 200


@pytest.mark.parametrize("role", ROLES)
def test_web_pages(world, report, role):
    web = Client()
    if world[role] is not None:
        web.force_login(world[role])
    detail = web.get(f"/games/reports/{report.reported_game_id}/")
    waiting = web.get("/games/reports/")
    notices = web.get("/players/notices/")
    if role == "anonymous":
        assert {detail.status_code, waiting.status_code, notices.status_code} == {302}
        return
    assert waiting.status_code == 200 and notices.status_code == 200
    assert detail.status_code == (404 if role == "outsider" else 200)
    html = detail.content.decode()
    assert ("Confirm this result" in html) == (role == "opponent")
    assert ('action="/games/reports/' in html and "/rule/" in html) == (
        role in ("controller", "organiser")
    )
    confirm = web.post(f"/games/reports/versions/{report.pk}/confirm/")
    assert confirm.status_code == {"opponent": 302, "outsider": 404}.get(role, 403)


def test_the_header_counts_unread_notices(world, report):
    web = Client()
    web.force_login(world["opponent"])
    page = web.get("/games/reports/").content.decode()
    assert 'id="notices-link"' in page and 'class="badge"' in page
    web.post("/players/notices/read/")
    assert 'class="badge"' not in web.get("/games/reports/").content.decode()
