"""The staff's rating tools on the web and the API: a recompute as a task with progress, an
event's Elo now, the Elo explanation, a repeated-results series reverted in one action, flags
naming players; each refused to anonymous visitors, players and organisers."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from players.models import AuditEntry
from ratings import services
from ratings.models import RecomputeRun, Review
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.ratings.helpers import assert_chains_consistent, make_game, value

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_games():
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for p, q, tps in ((a, b, [13.3, 6.7]), (b, c, [15.0, 5.0]), (a, c, [10.0, 10.0])):
        services.game_ratings_apply(game_id=make_game([p, q], [20, 10], event_id=41, tps=tps).pk)
    return a, b, c


@pytest.fixture
def series(settings):
    """Six wins of one player over another within a day: a repeated-results flag."""
    settings.RATINGS_REVIEW_REPEAT_GAMES = 6
    winner = PlayerFactory(display_name="Vera")
    loser = PlayerFactory(display_name="Walt")
    other = PlayerFactory(display_name="Ana")
    start = timezone.now() - dt.timedelta(hours=5)
    games = []
    for i in range(6):
        game = make_game([winner, loser], [20, 8], played_at=start + dt.timedelta(minutes=i))
        games.append(game)
        services.game_ratings_apply(game_id=game.pk)
    later = make_game([loser, other], [15, 9], played_at=start + dt.timedelta(hours=1))
    services.game_ratings_apply(game_id=later.pk)
    review = Review.objects.get(kind="repeated_results")
    return winner, loser, other, games, review


def _roles(organiser, admin_user):
    return {
        "anonymous": None,
        "player": PlayerFactory(with_user=True).user,
        "organiser": organiser,
        "staff": admin_user,
    }


def test_api_staff_endpoints_refuse_everyone_but_staff(organiser, admin_user, series):
    *_, review = series
    run = RecomputeRun.objects.create(systems=["lobby"])
    calls = [
        ("get", "/api/ratings/recomputes/", None),
        ("post", "/api/ratings/recomputes/", {"systems": ["lobby"]}),
        ("get", f"/api/ratings/recomputes/{run.pk}/", None),
        ("post", "/api/ratings/events/41/elo/", None),
        ("post", f"/api/ratings/reviews/{review.pk}/revert-series/", {"note": "x"}),
    ]
    expected = {"anonymous": 401, "player": 403, "organiser": 403}
    for role, user in _roles(organiser, admin_user).items():
        if role == "staff":
            continue
        for method, url, data in calls:
            response = getattr(client_for(user), method)(url, data, format="json")
            assert response.status_code == expected[role], (role, method, url)
    assert Review.objects.get(pk=review.pk).is_open  # nothing was done


def test_web_staff_tools_refuse_everyone_but_staff(organiser, admin_user, series):
    *_, review = series
    urls = [
        reverse("rating-recompute"),
        reverse("rating-event-elo"),
        reverse("review-series-revert", args=[review.pk]),
    ]
    for role, user in _roles(organiser, admin_user).items():
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in urls:
            response = client.post(url, {"note": "x", "event": 41})
            if role == "anonymous":
                assert response.status_code == 302 and "login" in response["Location"]
            elif role == "staff":
                assert response.status_code == 302 and "login" not in response["Location"]
            else:
                assert response.status_code == 403, (role, url)


def test_recompute_as_a_task_with_progress_from_the_api(admin_user, event_games):
    client = client_for(admin_user)
    bad = client.post("/api/ratings/recomputes/", {"systems": ["chess"]}, format="json")
    assert bad.status_code == 400 and "systems" in bad.json()
    response = client.post("/api/ratings/recomputes/", {"systems": ["lobby"]}, format="json")
    assert response.status_code == 202
    run_id = response.json()["id"]
    assert response.json()["status"] == "queued"
    services.recompute_run(run_id=run_id)  # what the worker's task does
    assert services.recompute_run(run_id=run_id) is None  # a redelivery finds it claimed
    body = client.get(f"/api/ratings/recomputes/{run_id}/").json()
    assert body["status"] == "done" and body["status_label"] == "Done"
    assert body["summary"]["systems"]["lobby"]["corrected"] == 0  # live equals a recompute
    assert body["progress"] == {"lobby": 3}  # three games replayed
    assert [r["id"] for r in client.get("/api/ratings/recomputes/").json()["results"]] == [run_id]


def test_recompute_from_the_web_page(admin_user, event_games):
    client = Client()
    client.force_login(admin_user)
    response = client.post(reverse("rating-recompute"), {"systems": ["lobby", "monthly"]})
    assert response.status_code == 302
    run = RecomputeRun.objects.get()
    assert run.systems == ["lobby", "monthly"] and run.requested_by == admin_user
    services.recompute_run(run_id=run.pk)
    page = client.get(reverse("review-queue")).content.decode()
    assert "Lobby ranking: 3 events, 0 corrected" in page and "Done" in page


def test_event_elo_now_on_the_api_and_the_web(admin_user, event_games):
    a, _, _ = event_games
    body = client_for(admin_user).post("/api/ratings/events/41/elo/").json()
    assert body["event_id"] == 41 and body["players"] == 3 and body["games"] == 3
    assert value(a, "elo") is not None
    none = client_for(admin_user).post("/api/ratings/events/999/elo/")
    assert none.status_code == 400 and "event" in none.json()
    client = Client()
    client.force_login(admin_user)
    response = client.post(reverse("rating-event-elo"), {"event": 41}, follow=True)
    assert "recalculated: 3 players" in response.content.decode()


def test_the_api_explains_an_elo_change(event_games):
    a, _, _ = event_games
    services.elo_event_recalculate(event_id=41)
    body = client_for(None).get(f"/api/ratings/players/{a.pk}/").json()
    (result,) = body["elo_results"]
    assert result["event_id"] == 41 and result["games"] == 2
    assert result["share"] == pytest.approx(23.3 / 40)  # 13.3 + 10 of 40 TPs
    for field in ("expected_share", "performance", "opposition_average", "rating_after"):
        assert isinstance(result[field], float)


def test_a_repeated_results_series_is_listed_by_name_and_reverted_in_one_action(admin_user, series):
    winner, loser, other, games, review = series
    body = client_for(admin_user).get(f"/api/ratings/reviews/{review.pk}/").json()
    assert body["player_name"] == "Vera" and body["opponent_name"] == "Walt"
    assert [g["game_id"] for g in body["series"]] == [g.pk for g in games]
    assert {(g["winner"], g["loser"]) for g in body["series"]} == {("Vera", "Walt")}
    page_client = Client()
    page_client.force_login(admin_user)
    page = page_client.get(reverse("review-queue")).content.decode()
    assert "6 wins over Walt" in page and "Vera 20–8 Walt" in page
    assert f"player {loser.pk}" not in page

    response = client_for(admin_user).post(
        f"/api/ratings/reviews/{review.pk}/revert-series/", {"note": "win trading"}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "reverted"
    entry = AuditEntry.objects.get(action="review_revert")
    assert (entry.review_id, entry.reason) == (review.pk, "win trading")
    assert entry.details["series"] == [g.pk for g in games] == entry.details["reverted"]
    assert review.pk in entry.details["reviews_closed"]
    # Every game of the series is out: the ratings equal the history without them.
    assert value(winner) == 500.0
    result = services.ratings_recompute(systems=["lobby", "monthly"])
    assert all(r.steps == 0 and r.corrected == 0 for r in result.systems.values())
    assert value(other) < 500.0  # Ana's loss to Walt stands, replayed from Walt's 500
    assert_chains_consistent()
    again = client_for(admin_user).post(
        f"/api/ratings/reviews/{review.pk}/revert-series/", {"note": "again"}, format="json"
    )
    assert again.status_code == 400 and "review" in again.json()
