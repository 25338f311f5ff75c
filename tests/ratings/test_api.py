"""The ratings API: public reads, staff-only review, field-level 400s, the audit trail."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from players.models import AuditEntry
from ratings import services
from ratings.models import EloStanding, Rating, Review, Title
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game, value

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(settings):
    """Two players with one lobby game between them, both changes flagged for review."""
    settings.RATINGS_REVIEW_SWING_POINTS = 3.0
    a = PlayerFactory(display_name="Ingrid", country="DE")
    b = PlayerFactory(display_name="Tomas", country="CZ")
    game = make_game([a, b], [19, 10])
    services.game_ratings_apply(game_id=game.pk)
    return a, b, game


@pytest.fixture
def roles(user_player, organiser, admin_user):
    """Who asks: nobody, a player, an organiser, an admin."""
    return {
        "anonymous": None,
        "player": user_player.user,
        "organiser": organiser,
        "admin": admin_user,
    }


def _review(rated):
    return Review.objects.filter(status="open").order_by("id").first()


def _eligible(admin_user):
    star = PlayerFactory(display_name="Star")
    Rating.objects.create(player=star, system="lobby", value=960.0, games=400)
    EloStanding.objects.create(
        event_id=1,
        player=star,
        rating_before=1850,
        games_before=0,
        rating_after=1900,
        games_after=8,
        games=8,
        share=0.6,
        expected_share=0.5,
        performance=1900,
        opposition_average=1850,
    )
    return star


PUBLIC_GETS = [
    "/api/ratings/rankings/",
    "/api/ratings/rankings/?system=monthly",
    "/api/ratings/titles/",
]


@pytest.mark.parametrize("who", ["anonymous", "player", "organiser", "admin"])
def test_public_reads_for_everyone(rated, roles, who):
    a, _, _ = rated
    client = client_for(roles[who])
    for url in [
        *PUBLIC_GETS,
        f"/api/ratings/players/{a.pk}/",
        f"/api/ratings/players/{a.pk}/history/?system=lobby",
    ]:
        assert client.get(url).status_code == 200, url


STAFF_ENDPOINTS = [
    ("get", "/api/ratings/reviews/", None),
    ("get", "/api/ratings/reviews/{review}/", None),
    ("post", "/api/ratings/reviews/{review}/approve/", {"note": "checked"}),
    ("post", "/api/ratings/reviews/{review}/revert/", {"note": "checked"}),
    ("post", "/api/ratings/changes/{change}/revert/", {"note": "checked"}),
    ("get", "/api/ratings/adjustments/", None),
    (
        "post",
        "/api/ratings/adjustments/",
        {"player": "{player}", "system": "lobby", "delta": 2, "reason": "x"},
    ),
    ("post", "/api/ratings/titles/", {"player": "{star}", "note": "congratulations"}),
    ("post", "/api/ratings/titles/{title}/withdraw/", {"note": "x"}),
    ("get", "/api/ratings/audit/", None),
]


def _fill(template, ids):
    if isinstance(template, str):
        return template.format(**ids)
    if isinstance(template, dict):
        filled = {k: _fill(v, ids) for k, v in template.items()}
        return {k: int(v) if k == "player" else v for k, v in filled.items()}
    return template


@pytest.mark.parametrize(("method", "url", "body"), STAFF_ENDPOINTS)
@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 401), ("player", 403), ("organiser", 403)]
)
def test_review_and_title_endpoints_refuse_non_admins(
    rated, roles, admin_user, method, url, body, who, expected
):
    a, _, game = rated
    star = _eligible(admin_user)
    held = Title.objects.create(player=PlayerFactory(), awarded_by=admin_user)
    ids = {
        "review": _review(rated).pk,
        "change": game.rating_changes.first().pk,
        "player": a.pk,
        "star": star.pk,
        "title": held.pk,
    }
    client = client_for(roles[who])
    response = getattr(client, method)(_fill(url, ids), _fill(body, ids), format="json")
    assert response.status_code == expected, response.content
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(("method", "url", "body"), STAFF_ENDPOINTS)
def test_admins_may_use_every_review_and_title_endpoint(rated, admin_user, method, url, body):
    a, _, game = rated
    star = _eligible(admin_user)
    held = Title.objects.create(player=PlayerFactory(), awarded_by=admin_user)
    ids = {
        "review": _review(rated).pk,
        "change": game.rating_changes.first().pk,
        "player": a.pk,
        "star": star.pk,
        "title": held.pk,
    }
    response = getattr(client_for(admin_user), method)(
        _fill(url, ids), _fill(body, ids), format="json"
    )
    assert response.status_code in (200, 201), response.content
    if method == "post":
        entry = AuditEntry.objects.order_by("-id").first()
        assert entry.actor == admin_user and entry.reason


def test_rankings_rank_filter_and_validate(rated):
    a, b, _ = rated
    c = PlayerFactory(display_name="Ingeborg", country="DE")
    services.game_ratings_apply(game_id=make_game([c, b], [12, 11]).pk)
    robot = PlayerFactory(display_name="Robot", is_robot=True)
    services.game_ratings_apply(game_id=make_game([robot, b], [30, 0]).pk)
    client = client_for(None)
    rows = client.get("/api/ratings/rankings/").json()["results"]
    assert [r["display_name"] for r in rows] == ["Ingrid", "Ingeborg", "Tomas"]  # no robot
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert rows[0]["value"] == value(a) and rows[0]["games"] == 1

    czech = client.get("/api/ratings/rankings/?country=cz").json()["results"]
    assert [(r["display_name"], r["rank"]) for r in czech] == [("Tomas", 3)]
    found = client.get("/api/ratings/rankings/?search=inge").json()["results"]
    assert [(r["display_name"], r["rank"]) for r in found] == [("Ingeborg", 2)]

    bad = client.get("/api/ratings/rankings/?system=chess&country=Germany")
    assert bad.status_code == 400
    assert set(bad.json()) == {"system", "country"}


def test_ranking_shows_the_top_100_only(settings):
    settings.RATINGS_RANKING_SIZE = 3
    for i in range(5):
        Rating.objects.create(player=PlayerFactory(), system="lobby", value=500 + i, games=1)
    body = client_for(None).get("/api/ratings/rankings/").json()
    assert body["count"] == 3
    assert [r["value"] for r in body["results"]] == [504.0, 503.0, 502.0]


def test_history_is_chart_data(rated, admin_user):
    a, b, game = rated
    services.game_ratings_revert(actor=admin_user, game_id=game.pk, note="void")
    body = client_for(None).get(f"/api/ratings/players/{a.pk}/history/?system=lobby").json()
    points = body["results"]
    # The timeline: the reverted game stays in its place as a step that moves nothing.
    assert [p["reason"] for p in points] == ["revert"]
    assert points[0]["before"] == points[0]["after"] == 500.0
    assert points[0]["reverts"] == points[0]["replaces"]
    assert points[0]["played_at"] is not None
    bad = client_for(None).get(f"/api/ratings/players/{a.pk}/history/?system=go")
    assert bad.status_code == 400 and "system" in bad.json()
    assert client_for(None).get("/api/ratings/players/999999/history/").status_code == 404


def test_player_ratings_summary(rated, admin_user):
    a, _, _ = rated
    body = client_for(None).get(f"/api/ratings/players/{a.pk}/").json()
    assert {r["system"] for r in body["ratings"]} == {"lobby", "monthly"}
    assert body["titles"] == [] and body["elo_tournaments"] == 0


def test_field_level_errors(rated, admin_user):
    a, _, _ = rated
    admin = client_for(admin_user)
    both = admin.post(
        "/api/ratings/adjustments/",
        {"player": a.pk, "system": "lobby", "delta": 1, "value": 600, "reason": "x"},
        format="json",
    )
    assert both.status_code == 400 and "delta" in both.json()
    off_scale = admin.post(
        "/api/ratings/adjustments/",
        {"player": a.pk, "system": "lobby", "value": 1001, "reason": "x"},
        format="json",
    )
    assert off_scale.status_code == 400 and "value" in off_scale.json()
    # Reverting needs a why; acknowledging keeps the ratings and does not (issue 28).
    no_note = admin.post(f"/api/ratings/reviews/{_review(rated).pk}/revert/", {}, format="json")
    assert no_note.status_code == 400 and "note" in no_note.json()
    not_eligible = admin.post(
        "/api/ratings/titles/", {"player": a.pk, "note": "why not"}, format="json"
    )
    assert not_eligible.status_code == 400
    reasons = not_eligible.json()["player"]
    assert any("950" in r for r in reasons) and any("Elo-rated" in r for r in reasons)


def test_a_review_is_resolved_once(rated, admin_user):
    admin = client_for(admin_user)
    review = _review(rated)
    ok = admin.post(f"/api/ratings/reviews/{review.pk}/approve/", {"note": "fine"}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "approved"
    assert ok.json()["reviewer"] == admin_user.pk
    again = admin.post(f"/api/ratings/reviews/{review.pk}/revert/", {"note": "no"}, format="json")
    assert again.status_code == 400 and "review" in again.json()
    listed = admin.get("/api/ratings/reviews/?status=approved").json()["results"]
    assert [r["id"] for r in listed] == [review.pk]


def test_title_cap_and_one_title_per_player(admin_user, settings):
    settings.RATINGS_MASTER_CAP = 1
    star = _eligible(admin_user)
    admin = client_for(admin_user)
    awarded = admin.post("/api/ratings/titles/", {"player": star.pk, "note": "950"}, format="json")
    assert awarded.status_code == 201
    again = admin.post("/api/ratings/titles/", {"player": star.pk, "note": "x"}, format="json")
    assert again.status_code == 400 and "already holds" in again.json()["player"][0]
    other = PlayerFactory()
    Rating.objects.create(player=other, system="lobby", value=990.0, games=900)
    EloStanding.objects.create(
        event_id=2,
        player=other,
        rating_before=1850,
        games_before=0,
        rating_after=1850,
        games_after=4,
        games=4,
        share=0.5,
        expected_share=0.5,
        performance=1850,
        opposition_average=1850,
    )
    capped = admin.post("/api/ratings/titles/", {"player": other.pk, "note": "x"}, format="json")
    assert capped.status_code == 400 and "cap of 1" in capped.json()["player"][0]
    titles = client_for(None).get("/api/ratings/titles/").json()["results"]
    assert [t["display_name"] for t in titles] == ["Star"] and "note" not in titles[0]
    withdraw = admin.post(
        f"/api/ratings/titles/{awarded.json()['id']}/withdraw/",
        {"note": "no Master games", "lapsed": True},
        format="json",
    )
    assert withdraw.status_code == 200 and withdraw.json()["status"] == "lapsed"
    assert client_for(None).get("/api/ratings/titles/").json()["results"] == []
    everything = client_for(None).get("/api/ratings/titles/?status=all").json()["results"]
    assert [t["status"] for t in everything] == ["lapsed"]


def test_openapi_schema_has_the_ratings_paths_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))
    text = out.read_text()
    for path in [
        "/api/ratings/rankings/",
        "/api/ratings/players/{id}/history/",
        "/api/ratings/reviews/{id}/revert/",
        "/api/ratings/adjustments/",
        "/api/ratings/titles/{id}/withdraw/",
        "/api/ratings/recomputes/",
        "/api/ratings/recomputes/{id}/",
        "/api/ratings/events/{event_id}/elo/",
        "/api/ratings/reviews/{id}/revert-series/",
        "/api/ratings/reviews/{id}/acknowledge/",
        "/api/ratings/reviews/{id}/revert-games/",
        "/api/ratings/reviews/{id}/adjust/",
    ]:
        assert f"{path}:" in text, path
