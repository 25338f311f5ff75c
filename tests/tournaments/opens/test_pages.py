"""Table opens from the web pages and the API: what a controller and an organiser see and do."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from players.models import AuditEntry
from tests.conftest import client_for
from tests.factories import PlayerFactory, make_organiser
from tests.tournaments.opens.helpers import open_championship, table_open
from tournaments.models import (
    AuditAction,
    Entry,
    EntryStatus,
    Event,
    MatchStatus,
    TableResult,
)
from tournaments.services import event_create
from tournaments.standings import round_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    return organiser, championship, controller


def _login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_creates_an_open_and_players_read_its_tiebreaks_before_the_start(setting):
    organiser, championship, _ = setting
    client = _login(organiser)
    response = client.post(
        reverse("open-new", args=[championship.pk]),
        {
            "name": "Autumn Open",
            "stage": 1,
            "system": "swiss",
            "swiss_rounds": 5,
            "tiebreak_0": "tp_total",
            "tiebreak_1": "median_buchholz",
            "tiebreak_2": "direct_encounter",
        },
    )
    event = Event.objects.get(name="Autumn Open")
    assert response.status_code == 302 and event.table_open and event.games_per_match == 1
    assert event.tiebreaks == ["tp_total", "median_buchholz", "direct_encounter"]
    page = Client().get(reverse("event-page", args=[event.pk])).content.decode()
    assert (
        "Standings are ranked <strong>by TP total</strong>, then <strong>by median Buchholz"
        "</strong>, then <strong>by direct encounter</strong>, and finally by seed." in page
    )
    assert "Table open" in page
    # A list that does not start with a score is refused next to the field, nothing created.
    response = client.post(
        reverse("open-new", args=[championship.pk]),
        {"name": "Bad", "stage": 1, "system": "swiss", "swiss_rounds": 3, "tiebreak_0": "wins"},
    )
    assert response.status_code == 200 and "must be TP total or match points" in (
        response.content.decode()
    )
    assert not Event.objects.filter(name="Bad").exists()


def test_a_controller_enters_a_whole_round_on_one_page(setting):
    organiser, championship, controller = setting
    event = table_open(organiser, championship, 6, swiss_rounds=3)
    round_ = event.rounds.get(number=1)
    client = _login(controller)
    url = reverse("open-round-results", args=[round_.pk])
    page = client.get(url).content.decode()
    assert page.count('name="t1-score_a"') == 1 and 'name="t3-score_b"' in page
    bad = {
        "t1-score_a": "24",
        "t1-score_b": "17",
        "t1-ending": "completed",
        "t2-score_a": "90",
        "t2-score_b": "3",
        "t2-ending": "completed",
        "t3-score_a": "",
        "t3-score_b": "",
        "t3-ending": "completed",
    }
    response = client.post(url, bad)
    assert response.status_code == 200
    assert (
        "Table 2" in response.content.decode() and "between 0 and 84" in response.content.decode()
    )
    assert not TableResult.objects.exists()  # all or nothing
    good = bad | {"t2-score_a": "10", "t2-ending": "resigned", "t2-conceded_by": "a"}
    response = client.post(url, good)
    assert response.status_code == 302
    assert TableResult.objects.count() == 2  # table 3 left blank: not yet in
    assert round_.matches.filter(status=MatchStatus.DECIDED).count() == 2
    response = client.post(url, {"t3-score_a": "15", "t3-score_b": "15", "t3-ending": "completed"})
    assert response.status_code == 302
    assert event.rounds.filter(number=2).exists()  # the round is complete: round 2 is paired
    pairings = Client().get(reverse("open-round-pairings", args=[round_.pk])).content.decode()
    assert "24 – 17" in pairings and "(resigned)" in pairings and "15 – 15" in pairings
    sheets = client.get(reverse("open-round-sheets", args=[round_.pk])).content.decode()
    assert "Table 3" in sheets and "opens-print.css" in sheets
    event_page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "<h2>Standings</h2>" in event_page and "Drop out" in event_page


def test_the_api_takes_a_round_in_one_request_and_refuses_it_whole(setting):
    organiser, championship, controller = setting
    event = table_open(organiser, championship, 4, swiss_rounds=2)
    round_ = event.rounds.get(number=1)
    api = client_for(controller)
    url = f"/api/rounds/{round_.pk}/results/"
    response = api.post(
        url,
        {
            "results": [
                {"table": 1, "score_a": 20, "score_b": "twelve"},
                {"table": 1, "score_a": 20, "score_b": 12},
                {"table": "x", "score_a": 1, "score_b": 2},
                {"table": 2, "score_a": 8, "score_b": 9, "ending": "time"},
            ]
        },
        format="json",
    )
    assert response.status_code == 400
    errors = response.data["results"]
    assert "given twice" in errors["1"]["table"][0]
    assert "table" in errors["item 3"]
    assert "lost on time" in errors["2"]["conceded_by"][0]
    assert api.post(url, {"results": []}, format="json").status_code == 400
    assert api.post(url, {"results": "nope"}, format="json").status_code == 400
    assert not TableResult.objects.exists()
    response = api.post(
        url,
        {
            "results": [
                {"table": 1, "score_a": 20, "score_b": 12, "minutes_a": 22},
                {"table": 2, "score_a": 8, "score_b": 9, "ending": "time", "conceded_by": "b"},
            ]
        },
        format="json",
    )
    assert response.status_code == 200, response.data
    tables = {t["table"]: t for t in response.data["tables"]}
    assert tables[1]["result"]["minutes_a"] == 22 and tables[1]["tps_a"] == "15.8"
    assert tables[2]["result"]["conceded_by"] == "b" and tables[2]["tps_a"] == "13.3"
    standings = client_for(None).get(f"/api/events/{event.pk}/ranked-standings/").data
    assert standings["started"] and [r["place"] for r in standings["rows"]] == [1, 2, 3, 4]
    assert standings["exports"]["standings_csv"].endswith(".csv")
    assert "event_json" not in standings["exports"]
    assert [
        t["table"]
        for t in client_for(None)
        .get(f"/api/rounds/{round_tables(round_)[0].match.round_id}/tables/")
        .data["tables"]
    ] == [1, 2]


def test_tiebreaks_change_after_the_start_only_when_confirmed_and_audited(setting):
    organiser, championship, _ = setting
    event = table_open(organiser, championship, 4, swiss_rounds=2, start=False)
    api = client_for(organiser)
    url = f"/api/events/{event.pk}/tiebreaks/"
    # Before the start: free, and shown to everyone.
    assert (
        api.put(url, {"tiebreaks": ["match_points", "buchholz"]}, format="json").status_code == 200
    )
    assert client_for(None).get(url).data["labels"] == ["Match points", "Buchholz"]
    bad = api.put(url, {"tiebreaks": ["tp_total", "elo"]}, format="json")
    assert bad.status_code == 400 and "unknown tie-break elo" in str(bad.data["tiebreaks"])
    from tournaments.opens.services.table_opens import table_open_start

    table_open_start(actor=organiser, event=event)
    refused = api.put(url, {"tiebreaks": ["tp_total", "sonneborn_berger"]}, format="json")
    assert refused.status_code == 400 and "Confirm" in str(refused.data["confirm"])
    event.refresh_from_db()
    assert event.tiebreaks == ["match_points", "buchholz"]
    web = _login(organiser)
    form_url = reverse("event-tiebreaks", args=[event.pk])
    assert "has started" in web.get(form_url).content.decode()
    response = web.post(
        form_url,
        {
            "tiebreak_0": "tp_total",
            "tiebreak_1": "sonneborn_berger",
            "confirm": "on",
            "reason": "announced wrongly",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.tiebreaks == ["tp_total", "sonneborn_berger"]
    entry = AuditEntry.objects.filter(action=AuditAction.TIEBREAKS_SET).latest("id")
    assert entry.details["after_start"] is True and entry.reason == "announced wrongly"
    assert entry.details["before"] == ["Match points", "Buchholz"]
    assert entry.get_action_display() == "Tie-breaks set"


def test_odd_input_is_a_400_never_a_500(setting):
    organiser, championship, controller = setting
    event = table_open(organiser, championship, 4, swiss_rounds=2)
    api = client_for(controller)
    for player in ("9" * 30, "nobody at all"):
        response = api.post(f"/api/events/{event.pk}/late-entries/", {"player": player})
        assert response.status_code == 400 and "No player" in str(response.data["player"])
    round_ = event.rounds.get(number=1)
    weird = [
        {"table": 1, "score_a": {"x": 1}, "score_b": [3], "ending": ["?"], "conceded_by": {}},
        {"table": 2.0},
        {"table": True},
    ]
    response = api.post(f"/api/rounds/{round_.pk}/results/", {"results": weird}, format="json")
    assert response.status_code == 400 and set(response.data["results"]) == {
        "1",
        "item 2",
        "item 3",
    }
    # A round of an online event is not a table open's.
    online = event_create(
        actor=organiser, championship=championship, name="Online", format="knockout"
    )
    other = online.rounds.create(number=1)
    response = api.post(
        f"/api/rounds/{other.pk}/results/",
        {"results": [{"table": 1, "score_a": 1, "score_b": 2}]},
        format="json",
    )
    assert response.status_code == 400 and "not a table open" in str(response.data)
    response = client_for(organiser).put(
        f"/api/events/{event.pk}/tiebreaks/", {"tiebreaks": "tp_total"}, format="json"
    )
    assert response.status_code == 400


def test_a_table_open_is_started_not_drawn_but_either_way_gets_tables(setting):
    """The generic "Make the draw" is not offered for a table open; its URL leads to "Start the
    open", and the API's draw action publishes it face to face (tables, no deadlines)."""
    organiser, championship, _ = setting
    event = table_open(organiser, championship, 6, start=False)
    client = _login(organiser)
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "Start the open" in page and "Make the draw" not in page
    response = client.get(reverse("event-draw-make", args=[event.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("open-start", args=[event.pk])
    response = client_for(organiser).post(
        f"/api/events/{event.pk}/draw/", {"draw_seed": 3}, format="json"
    )
    assert response.status_code == 200, response.data
    first = event.rounds.get(number=1)
    assert first.deadline is None
    assert [t.number for t in round_tables(first)] == [1, 2, 3]


def test_start_late_entry_and_drop_out_from_their_pages(setting):
    """Each form page runs its service on a valid POST and goes back to the event page with a
    message; a refusal shows the form again with the service's words."""
    organiser, championship, controller = setting
    event = table_open(organiser, championship, 6, start=False, swiss_rounds=3)
    event_url = reverse("event-page", args=[event.pk])

    response = _login(organiser).post(reverse("open-start", args=[event.pk]), {"draw_seed": 1})
    assert response.status_code == 302 and response.url == event_url
    assert event.rounds.filter(number=1).exists()

    web = _login(controller)
    late = PlayerFactory()
    response = web.post(reverse("open-late-entry", args=[event.pk]), {"player": str(late.pk)})
    assert response.status_code == 302 and response.url == event_url
    entry = Entry.objects.get(event=event, player=late)
    message = str(list(web.get(event_url).context["messages"])[0])
    assert message == f"{late.display_name} joins at round {entry.joined_round}."

    drop_url = reverse("open-entry-drop", args=[entry.pk])
    response = web.post(drop_url, {"reason": "ill"})
    assert response.status_code == 302 and response.url == event_url
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    again = web.post(drop_url, {"reason": "ill"})
    assert again.status_code == 200 and "is no longer in play" in again.content.decode()
