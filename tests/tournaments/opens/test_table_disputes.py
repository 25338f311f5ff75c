"""Disputes of a typed table-open result (tournaments.opens.services.table_disputes): who may
dispute, rule and reopen, on the web page `open-table-result` and the API `api/tables/<id>/`,
and what bad input gets."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from players.models import Notice
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.tournaments.opens.helpers import open_championship, table_open
from tournaments.models import TableResult
from tournaments.opens.services.score_sheets import TableResultsError, table_results_enter
from tournaments.standings import event_standings, round_tables

pytestmark = pytest.mark.django_db

ROLES = ("table_player", "other_player", "controller", "organiser", "outsider", "anonymous")


@pytest.fixture
def world():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 4, swiss_rounds=3)
    round_ = event.rounds.get(number=1)
    table = round_tables(round_)[0]
    match = table.match
    for entry in (match.entry_a, match.entry_b):
        entry.player.user = UserFactory()
        entry.player.save(update_fields=["user"])
    table_results_enter(actor=controller, round_=round_, sheets={1: {"score_a": 20, "score_b": 14}})
    match.refresh_from_db()
    return {
        "event": event,
        "round": round_,
        "match": match,
        "users": {
            "table_player": match.entry_a.player.user,
            "other_player": match.entry_b.player.user,
            "controller": controller,
            "organiser": organiser,
            "outsider": PlayerFactory(with_user=True).user,
            "anonymous": None,
        },
    }


def _web(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _api(world, role: str, action: str, body: dict):
    url = f"/api/tables/{world['match'].pk}/{action}/"
    return client_for(world["users"][role]).post(url, body, format="json")


def _state(world) -> str:
    return TableResult.objects.get(match=world["match"]).state


DISPUTE = {
    "table_player": 200,
    "other_player": 200,
    "controller": 403,
    "organiser": 403,
    "outsider": 403,
    "anonymous": 401,
}
RULE = {
    "table_player": 403,
    "other_player": 403,
    "controller": 200,
    "organiser": 200,
    "outsider": 403,
    "anonymous": 401,
}
REOPEN = {
    "table_player": 403,
    "other_player": 403,
    "controller": 403,
    "organiser": 200,
    "outsider": 403,
    "anonymous": 401,
}


@pytest.mark.parametrize("role", ROLES)
def test_api_roles(world, role):
    """Each step by each role, from the state it applies to; a refusal changes nothing."""
    users = world["users"]
    # Anyone reads the result; only the table's players and the staff read the history.
    read = client_for(users[role]).get(f"/api/tables/{world['match'].pk}/")
    assert read.status_code == 200 and read.data["state"] == "entered"
    assert (read.data["history"] is not None) == (
        role in ("table_player", "other_player", "controller", "organiser")
    )
    answer = _api(world, role, "dispute", {"reason": "The sheet says 24."})
    assert answer.status_code == DISPUTE[role], answer.data
    if answer.status_code != 200:
        assert _state(world) == "entered"
        _api(world, "table_player", "dispute", {"reason": "The sheet says 24."})
    assert _state(world) == "disputed"
    answer = _api(
        world, role, "rule", {"reason": "Checked the sheet.", "score_a": 24, "score_b": 14}
    )
    assert answer.status_code == RULE[role], answer.data
    if answer.status_code != 200:
        assert _state(world) == "disputed"
        _api(world, "controller", "rule", {"reason": "Checked.", "score_a": 24, "score_b": 14})
    assert _state(world) == "ruled"
    answer = _api(world, role, "reopen", {"reason": "A second look."})
    assert answer.status_code == REOPEN[role], answer.data
    assert _state(world) == ("disputed" if answer.status_code == 200 else "ruled")


WEB_ACTIONS = {
    # role: (may dispute, may rule, may reopen) on the page, each in its own state
    "table_player": (True, False, False),
    "other_player": (True, False, False),
    "controller": (False, True, False),
    "organiser": (False, True, True),
    "outsider": (False, False, False),
    "anonymous": (False, False, False),
}


@pytest.mark.parametrize("role", ROLES)
def test_web_page_roles(world, role):
    users = world["users"]
    url = reverse("open-table-result", args=[world["match"].pk])
    client = _web(users[role])
    may_dispute, may_rule, may_reopen = WEB_ACTIONS[role]
    page = client.get(url)
    assert page.status_code == 200
    assert ('value="dispute"' in page.content.decode()) == may_dispute
    posted = client.post(url, {"action": "dispute", "dispute-reason": "Not the sheet."})
    assert posted.status_code == (302 if may_dispute else 302 if role == "anonymous" else 403)
    if not may_dispute:
        assert _state(world) == "entered"
        _web(users["table_player"]).post(url, {"action": "dispute", "dispute-reason": "No."})
    assert _state(world) == "disputed"
    assert ('value="rule"' in client.get(url).content.decode()) == may_rule
    posted = client.post(url, {"action": "rule", "rule-reason": "It stands."})
    assert posted.status_code == (302 if may_rule or role == "anonymous" else 403)
    if not may_rule:
        _web(users["controller"]).post(url, {"action": "rule", "rule-reason": "It stands."})
    assert _state(world) == "ruled"
    assert ('value="reopen"' in client.get(url).content.decode()) == may_reopen
    posted = client.post(url, {"action": "reopen", "reopen-reason": "Again."})
    assert posted.status_code == (302 if may_reopen or role == "anonymous" else 403)
    assert _state(world) == ("disputed" if may_reopen else "ruled")


def test_a_ruling_corrects_the_result_the_standings_and_tells_the_players(world):
    users, match = world["users"], world["match"]
    before = {line.entry.pk: line.raw["tp_total"] for line in event_standings(world["event"])}
    assert (
        _api(world, "table_player", "dispute", {"reason": "I had 14, not 20."}).status_code == 200
    )
    assert Notice.objects.filter(user=users["controller"], text__contains="disputed").exists()
    # While disputed (or ruled) the round's results page does not change the table.
    with pytest.raises(TableResultsError) as refused:
        table_results_enter(
            actor=users["controller"],
            round_=world["round"],
            sheets={1: {"score_a": 1, "score_b": 2}},
        )
    assert "ruling" in str(refused.value.errors["1"]["table"])
    answer = _api(
        world, "controller", "rule", {"reason": "The sheet.", "score_a": 14, "score_b": 20}
    )
    assert answer.status_code == 200, answer.data
    assert answer.data["state"] == "ruled" and answer.data["result"]["score_a"] == 14
    match.refresh_from_db()
    assert match.winner_id == match.entry_b_id and match.tps_b > match.tps_a
    after = {line.entry.pk: line.raw["tp_total"] for line in event_standings(world["event"])}
    assert after[match.entry_b_id] > before[match.entry_b_id]
    assert Notice.objects.filter(user=users["other_player"], text__contains="ruled").exists()
    history = answer.data["history"]
    assert [h["action"] for h in history] == ["table_result_dispute", "table_result_rule"]
    assert "20" in history[1]["before"] and history[1]["reason"] == "The sheet."


def test_bad_input_is_a_400_with_the_field_and_changes_nothing(world):
    assert _api(world, "table_player", "dispute", {"reason": ""}).status_code == 400
    assert _api(world, "table_player", "dispute", {}).data.keys() == {"reason"}
    assert _api(world, "controller", "rule", {"reason": "x"}).status_code == 400  # not disputed
    assert _api(world, "organiser", "reopen", {"reason": "x"}).status_code == 400  # not ruled
    _api(world, "table_player", "dispute", {"reason": "No."})
    bad = _api(world, "controller", "rule", {"reason": "x", "score_a": 85, "score_b": 3})
    assert bad.status_code == 400 and "score_a" in bad.data
    bad = _api(world, "controller", "rule", {"reason": " ", "score_a": "x"})
    assert bad.status_code == 400 and "score_a" in bad.data
    assert _state(world) == "disputed"
    assert TableResult.objects.get(match=world["match"]).score_a == 20
    assert _api(world, "table_player", "dispute", {"reason": "again"}).status_code == 400
    assert client_for(None).get("/api/tables/999999/").status_code == 404
    page = _web(world["users"]["table_player"]).post(
        reverse("open-table-result", args=[world["match"].pk]), {"action": "nonsense"}
    )
    assert page.status_code == 404


def test_each_ruler_is_told_of_a_dispute_in_their_own_language(world, monkeypatch):
    from django.utils import translation

    from tournaments.opens.services import table_disputes

    # A stand-in catalogue that says which language each notice was worded in.
    monkeypatch.setattr(table_disputes, "_", lambda text: f"[{translation.get_language()}] {text}")
    controller, organiser = world["users"]["controller"], world["users"]["organiser"]
    controller.player.language = "hu"
    controller.player.save(update_fields=["language"])
    table_disputes.table_result_dispute(
        actor=world["users"]["table_player"], match_id=world["match"].pk, reason="20-14, not 14-20"
    )
    texts = dict(
        Notice.objects.filter(user__in=[controller, organiser]).values_list("user_id", "text")
    )
    # The round's name comes from the real catalogue, in the reader's language too.
    with translation.override("hu"):
        round_one = translation.gettext("Round %(number)s") % {"number": 1}
    assert round_one != "Round 1"
    assert texts[controller.pk].startswith(f"[hu] The result of {round_one}, table 1 in ")
    assert texts[organiser.pk].startswith("[en-gb] The result of Round 1, table 1 in ")


def test_a_dispute_notice_links_to_the_table(world):
    users = world["users"]
    assert _api(world, "table_player", "dispute", {"reason": "I had 14."}).status_code == 200
    page = reverse("open-table-result", args=[world["match"].pk])
    told = client_for(users["controller"]).get("/api/notices/").data["results"]
    assert [notice["url"] for notice in told] == [page]
    assert _web(users["controller"]).get(page).status_code == 200
