"""A player's home (issue 28): the page at `/` and `/api/me/…`, read by tournaments.home."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games.models import GameReport, ReportedGame, ResultState
from ratings.models import ChangeReason, Rating, RatingChange, RatingSystem
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.helpers import submit_match_game
from tournaments import services
from tournaments.home import selectors
from tournaments.home.sparkline import polyline_points
from tournaments.home.views import signed
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db

ME_PARTS = [
    "/api/me/",
    "/api/me/matches/",
    "/api/me/reports/waiting/",
    "/api/me/disputes/",
    "/api/me/results/",
    "/api/me/ratings/",
    "/api/me/events/open/",
]


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", country="NO", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", country="NZ", with_user=True)


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Home Open", year=2026, category="open", published=True
    )


@pytest.fixture
def match(organiser, championship, ingrid, tomas):
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Knockout",
        format="knockout",
        games_per_match=1,
    )
    for player in (ingrid, tomas):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return Match.objects.select_related("entry_a__player", "entry_b__player").get(event=event)


def page_of(user) -> str:
    client = Client()
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_visitor_and_an_account_without_a_player_get_the_visitors_home(db):
    visitor = Client().get("/")
    assert visitor.status_code == 200
    assert "Tantrix championships" in visitor.content.decode()
    assert "My next matches" not in visitor.content.decode()
    page = page_of(UserFactory(username="noplayer"))
    assert "Tantrix championships" in page and "My next matches" not in page


@pytest.mark.parametrize("path", ME_PARTS)
def test_the_api_refuses_an_anonymous_caller(db, path):
    assert client_for(None).get(path).status_code in (401, 403)


def test_an_account_without_a_player_has_empty_parts(db):
    user = UserFactory(username="noplayer")
    me = client_for(user).get("/api/me/")
    assert me.status_code == 200
    assert me.data["player"] is None and me.data["username"] == "noplayer"
    assert me.data["links"]["matches"] == "/api/me/matches/"
    for path in ME_PARTS[1:]:
        response = client_for(user).get(path)
        assert response.status_code == 200
        rows = response.data if isinstance(response.data, list) else response.data["results"]
        assert rows == [], path


def test_the_next_match_has_its_opponent_round_event_and_deadline_in_the_players_zone(
    match, ingrid, tomas
):
    ingrid.time_zone = "Asia/Tokyo"
    ingrid.save(update_fields=["time_zone"])
    deadline = dt.datetime(2026, 12, 20, 12, 0, tzinfo=dt.UTC)
    Round.objects.filter(pk=match.round_id).update(deadline=deadline)
    rows = selectors.next_matches(ingrid, now=deadline - dt.timedelta(days=1))
    assert [(r.match_id, r.opponent, r.event_name, r.championship_name) for r in rows] == [
        (match.pk, "Tomas", "Knockout", "Home Open")
    ]
    assert rows[0].deadline == deadline and not rows[0].overdue
    assert selectors.next_matches(ingrid, now=deadline + dt.timedelta(minutes=1))[0].overdue
    # The page: in Tokyo's time (21:00 JST), with the match page's link.
    page = page_of(ingrid.user)
    assert "Match against Tomas" in page
    assert f'href="/championships/matches/{match.pk}/"' in page
    assert "20 Dec 2026, 21:00 JST" in page
    # The API: in Tokyo's time as well, whatever the request's zone.
    me = client_for(ingrid.user).get("/api/me/")
    assert me.data["time_zone"] == "Asia/Tokyo" and me.data["player"]["display_name"] == "Ingrid"
    data = client_for(ingrid.user).get("/api/me/matches/").data
    assert data["count"] == 1
    row = data["results"][0]
    assert row["deadline"] == "2026-12-20T21:00:00+09:00"
    assert row["opponent"] == "Tomas" and row["page"] == f"/championships/matches/{match.pk}/"
    # Tomas chose no zone: the site's.
    other = client_for(tomas.user).get("/api/me/matches/").data["results"][0]
    assert other["opponent"] == "Ingrid"
    assert dt.datetime.fromisoformat(other["deadline"]) == deadline


def test_a_report_waits_on_the_opponents_home_only(
    match, ingrid, tomas, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit_match_game(ingrid.user, match, seed=41, confirm=False)
    version = GameReport.objects.get(record=submission.record)
    waiting = selectors.waiting_reports(tomas.user)
    assert [w.version_id for w in waiting] == [version.pk]
    assert waiting[0].reported_by == "Ingrid" and waiting[0].match_id == match.pk
    assert "Ingrid v Tomas" in waiting[0].match_label
    assert selectors.waiting_reports(ingrid.user) == []
    # The opponent's page offers the answer; the reporter's and an outsider's do not.
    assert f'href="/games/reports/{version.reported_game_id}/"' in page_of(tomas.user)
    assert "Nothing is waiting for your answer." in page_of(ingrid.user)
    outsider = PlayerFactory(display_name="Outsider", with_user=True)
    assert "Nothing is waiting for your answer." in page_of(outsider.user)
    rows = client_for(tomas.user).get("/api/me/reports/waiting/").data["results"]
    assert [row["version"] for row in rows] == [version.pk]
    assert rows[0]["confirm"] == f"/api/reports/versions/{version.pk}/confirm/"
    for player in (ingrid, outsider):
        assert client_for(player.user).get("/api/me/reports/waiting/").data["results"] == []


def test_a_disputed_result_shows_on_both_players_homes(
    match, ingrid, tomas, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit_match_game(ingrid.user, match, seed=42, confirm=False)
    reported = GameReport.objects.get(record=submission.record).reported_game
    ReportedGame.objects.filter(pk=reported.pk).update(state=ResultState.DISPUTED)
    for player in (ingrid, tomas):
        rows = client_for(player.user).get("/api/me/disputes/").data["results"]
        assert [row["reported_game"] for row in rows] == [reported.pk]
        assert rows[0]["match"] == match.pk
    outsider = PlayerFactory(display_name="Outsider", with_user=True)
    assert client_for(outsider.user).get("/api/me/disputes/").data["results"] == []
    assert "None of your results is disputed." in page_of(outsider.user)


def test_a_settled_match_is_a_recent_result_and_no_longer_a_next_match(
    match, ingrid, tomas, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submit_match_game(organiser, match, seed=43)
    match.refresh_from_db()
    assert match.is_final and match.winner_id is not None
    winner = ingrid if match.winner.player_id == ingrid.pk else tomas
    loser = tomas if winner is ingrid else ingrid
    assert selectors.next_matches(winner) == []
    won = selectors.recent_results(winner)
    lost = selectors.recent_results(loser)
    assert [(r.match_id, r.outcome) for r in won] == [(match.pk, "won")]
    assert [(r.match_id, r.outcome) for r in lost] == [(match.pk, "lost")]
    # TPs with one decimal place, each side's own first.
    assert (won[0].tps_mine, won[0].tps_theirs) == (lost[0].tps_theirs, lost[0].tps_mine)
    assert "." in won[0].tps_mine
    page = page_of(winner.user)
    assert f"Won against {loser.display_name}" in page
    rows = client_for(loser.user).get("/api/me/results/").data["results"]
    assert rows[0]["outcome"] == "lost" and rows[0]["opponent"] == winner.display_name


def _step(player, system, *, before, after, days_ago, now):
    when = now - dt.timedelta(days=days_ago)
    return RatingChange.objects.create(
        player=player,
        system=system,
        reason=ChangeReason.ADJUSTMENT,
        note="test",
        before=before,
        after=after,
        delta=after - before,
        at=when,
        created=when,
    )


def test_a_rating_trend_is_its_move_over_the_last_thirty_days(ingrid, tomas):
    now = timezone.now()
    _step(ingrid, RatingSystem.LOBBY, before=500, after=505, days_ago=40, now=now)
    _step(ingrid, RatingSystem.LOBBY, before=505, after=512, days_ago=10, now=now)
    _step(ingrid, RatingSystem.LOBBY, before=512, after=508, days_ago=2, now=now)
    Rating.objects.create(player=ingrid, system=RatingSystem.LOBBY, value=508, games=3)
    # Tomas moved, but not in the last 30 days.
    _step(tomas, RatingSystem.LOBBY, before=500, after=490, days_ago=45, now=now)
    Rating.objects.create(player=tomas, system=RatingSystem.LOBBY, value=490, games=1)
    [trend] = selectors.rating_trends(ingrid, now=now)
    assert trend.system == RatingSystem.LOBBY and trend.value == 508
    assert trend.change == pytest.approx(3.0)
    assert trend.points == [505, 512, 508]
    [still] = selectors.rating_trends(tomas, now=now)
    assert still.change is None
    page = page_of(ingrid.user)
    assert "+3.0 in the last 30 days" in page and "<polyline" in page
    assert "No change in the last 30 days" in page_of(tomas.user)
    rows = client_for(ingrid.user).get("/api/me/ratings/").data
    assert rows[0]["system_code"] == "lobby" and rows[0]["change"] == pytest.approx(3.0)


def test_a_player_new_within_the_window_moves_from_where_they_started(ingrid):
    now = timezone.now()
    _step(ingrid, RatingSystem.LOBBY, before=500, after=480, days_ago=3, now=now)
    Rating.objects.create(player=ingrid, system=RatingSystem.LOBBY, value=480, games=1)
    [trend] = selectors.rating_trends(ingrid, now=now)
    assert trend.change == pytest.approx(-20.0)


def test_open_events_are_those_the_registration_service_would_take(
    organiser, championship, ingrid, tomas
):
    open_to_all = services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout"
    )
    national = services.event_create(
        actor=organiser,
        championship=championship,
        name="Kiwis only",
        format="knockout",
        eligibility="national",
        countries=["NZ"],
    )
    entered = services.event_create(
        actor=organiser, championship=championship, name="Entered", format="knockout"
    )
    services.entry_register(actor=organiser, event=entered, player=ingrid)
    assert [e.event_id for e in selectors.open_events(ingrid.user, ingrid)] == [open_to_all.pk]
    assert [e.event_id for e in selectors.open_events(tomas.user, tomas)] == [
        open_to_all.pk,
        national.pk,
        entered.pk,
    ]
    rows = client_for(ingrid.user).get("/api/me/events/open/").data["results"]
    assert [row["name"] for row in rows] == ["Open"]
    assert rows[0]["page"] == f"/championships/events/{open_to_all.pk}/"


def test_an_empty_home_says_what_to_do_next(organiser, championship, ingrid):
    page = page_of(ingrid.user)
    assert "No match waiting, and no event you may enter takes registrations now." in page
    assert "No rating yet" in page and "No result yet" in page
    services.event_create(
        actor=organiser, championship=championship, name="Open", format="knockout"
    )
    page = page_of(ingrid.user)
    assert "No match waiting: events open for registration are below." in page
    assert "Home Open: Open" in page


def test_the_home_is_in_the_api_schema(db):
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ME_PARTS:
        assert path in schema["paths"], path
        assert schema["paths"][path]["get"]["tags"] == ["me"]


def test_the_sparkline_and_the_signed_move():
    assert polyline_points([1.0]) == ""
    assert polyline_points([0.0, 10.0], width=10, height=10) == "0.0,8.0 10.0,2.0"
    assert polyline_points([5.0, 5.0, 5.0], width=10, height=10) == "0.0,5.0 5.0,5.0 10.0,5.0"
    assert signed(None) == "" and signed(0.04) == ""
    assert signed(3.0) == "+3.0" and signed(-12.34) == "\N{MINUS SIGN}12.3"


def _knockout(organiser, championship, name, players):
    event = services.event_create(
        actor=organiser, championship=championship, name=name, format="knockout"
    )
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return event


def test_the_home_reads_in_a_number_of_queries_that_does_not_grow_with_its_rows(
    organiser, championship, ingrid, tomas
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _knockout(organiser, championship, "First", [ingrid, tomas])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            found = selectors.home_for(ingrid.user)
        return len(captured), found

    queries()  # the account's player, cached on the user from then on
    one, found = queries()
    assert len(found.next_matches) == 1
    _knockout(organiser, championship, "Second", [ingrid, tomas])
    _knockout(organiser, championship, "Third", [ingrid, tomas])
    three, found = queries()
    assert len(found.next_matches) == 3
    assert three == one
