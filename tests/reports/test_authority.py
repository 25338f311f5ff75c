"""Authority over a report is authority over its championship; its author never answers it
(issue 26, defects 3 and 4).

Defect 3: an organiser entered an account-less player, reported a game against them and
confirmed their own report (200): the game stood and was rated. Defect 4: any organiser read,
confirmed and disputed the reports of championships they do not run (unpublished ones too),
because a game with an account-less player was open to "an organiser" rather than to that
championship's organisers.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, GameRecord, GameReport, ReportStatus
from players import services as player_services
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory, make_organiser
from tests.games.helpers import as_body, selfplay_record
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _submit(capture, user, names: list[str], seed: int, match: Match | None = None) -> GameReport:
    url = "/api/games/records/" + (f"?match={match.pk}" if match else "")
    with capture(execute=True):
        response = client_for(user).generic(
            "POST", url, as_body(selfplay_record(seed, names)), content_type="application/json"
        )
    assert response.status_code == 202, response.data
    return GameReport.objects.get(record=GameRecord.objects.get(pk=response.data["id"]))


def _web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- Defect 3: the author never answers their own report ---------------------------------------


@pytest.fixture
def org_two():
    user = make_organiser(username="orgtwo")
    user.player.display_name = "Org Two"
    user.player.save(update_fields=["display_name"])
    return user


@pytest.fixture
def acc_one(org_two):
    return player_services.player_create(actor=org_two, display_name="Acc One", country="DE")


def test_an_organiser_does_not_confirm_their_own_report_against_a_player_they_entered(
    org_two, acc_one, admin_user, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    version = _submit(capture, org_two, ["Org Two", "Acc One"], 41)
    assert version.status == ReportStatus.OPEN and version.author == org_two
    with capture(execute=True):
        api = client_for(org_two).post(f"/api/reports/versions/{version.pk}/confirm/")
        dispute = client_for(org_two).post(
            f"/api/reports/versions/{version.pk}/dispute/", {"reason": "x"}
        )
        web = _web(org_two).post(f"/games/reports/versions/{version.pk}/confirm/")
    assert (api.status_code, dispute.status_code, web.status_code) == (403, 403, 403)
    version.refresh_from_db()
    assert version.status == ReportStatus.OPEN and not Game.objects.exists()
    # The author reads their report, but it does not wait for them, and offers no answer.
    assert client_for(org_two).get(f"/api/reports/{version.reported_game_id}/").status_code == 200
    waiting = client_for(org_two).get("/api/reports/waiting/").data["waiting"]
    assert waiting == []
    page = _web(org_two).get(f"/games/reports/{version.reported_game_id}/").content.decode()
    assert "Confirm this result" not in page
    # Staff answer for the player without an account.
    with capture(execute=True):
        staff = client_for(admin_user).post(f"/api/reports/versions/{version.pk}/confirm/")
    assert staff.status_code == 200 and Game.objects.count() == 1


def test_the_organiser_who_entered_the_player_answers_a_casual_game_reported_against_them(
    org_two, acc_one, django_capture_on_commit_callbacks
):
    """Someone else's report against "Acc One": the organiser who entered Acc One answers
    for them (and is the only organiser who may)."""
    capture = django_capture_on_commit_callbacks
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    another = make_organiser()
    version = _submit(capture, ingrid.user, ["Ingrid", "Acc One"], 42)
    assert client_for(another).get(f"/api/reports/{version.reported_game_id}/").status_code == 404
    assert client_for(another).post(f"/api/reports/versions/{version.pk}/confirm/").status_code == (
        404
    )
    assert [w["id"] for w in client_for(org_two).get("/api/reports/waiting/").data["waiting"]] == [
        version.pk
    ]
    with capture(execute=True):
        response = client_for(org_two).post(f"/api/reports/versions/{version.pk}/confirm/")
    assert response.status_code == 200, response.data


@pytest.fixture
def own_match(org_two, acc_one):
    """Org Two's championship: Org Two plays Acc One in its knockout; a controller and a
    co-organiser run it with Org Two."""
    championship = services.championship_create(
        actor=org_two, name="Org Two Open", year=2026, category="open", published=True
    )
    controller = UserFactory()
    PlayerFactory(user=controller)
    co = make_organiser()
    championship.controllers.add(controller)
    championship.organisers.add(co)
    event = services.event_create(
        actor=org_two, championship=championship, name="KO", format="knockout", games_per_match=3
    )
    for player in (org_two.player, acc_one):
        services.entry_register(actor=org_two, event=event, player=player)
    services.draw_generate(actor=org_two, event=event, draw_seed=1)
    return Match.objects.get(event=event), controller, co


def test_an_organiser_playing_in_their_championship_neither_answers_nor_rules_their_report(
    org_two, acc_one, own_match, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    match, controller, co = own_match
    version = _submit(capture, org_two, ["Org Two", "Acc One"], 43, match)
    assert version.status == ReportStatus.OPEN and version.role == "side"
    with capture(execute=True):
        confirm = client_for(org_two).post(f"/api/reports/versions/{version.pk}/confirm/")
        rule = client_for(org_two).post(
            f"/api/reports/{version.reported_game_id}/rule/",
            {"version": 1, "reason": "Mine."},
            format="json",
        )
    assert (confirm.status_code, rule.status_code) == (403, 403)
    assert not Game.objects.exists()
    # The championship's controller, or another of its organisers, answers for Acc One.
    with capture(execute=True):
        response = client_for(co).post(f"/api/reports/versions/{version.pk}/confirm/")
    assert response.status_code == 200, response.data
    assert Game.objects.count() == 1


def test_a_controller_who_plays_in_a_disputed_game_does_not_rule_it(
    own_match, org_two, django_capture_on_commit_callbacks
):
    """A controller who plays in (or reported) a game is a party: another controller, an
    organiser of the championship, or staff rules."""
    capture = django_capture_on_commit_callbacks
    match, controller, co = own_match
    championship = match.event.championship
    carla = PlayerFactory(display_name="Carla", with_user=True)
    championship.controllers.add(carla.user)
    tomas = PlayerFactory(display_name="Tomas", with_user=True)
    event = services.event_create(
        actor=org_two, championship=championship, name="KO 2", format="knockout", stage=2
    )
    for player in (carla, tomas):
        services.entry_register(actor=org_two, event=event, player=player)
    services.draw_generate(actor=org_two, event=event, draw_seed=1)
    second = Match.objects.get(event=event)
    version = _submit(capture, carla.user, ["Carla", "Tomas"], 44, second)
    with capture(execute=True):
        disputed = client_for(tomas.user).post(
            f"/api/reports/versions/{version.pk}/dispute/", {"reason": "No."}
        )
    assert disputed.status_code == 200, disputed.data
    url = f"/api/reports/{version.reported_game_id}/rule/"
    ruling = {"version": 1, "reason": "Seen."}
    assert client_for(carla.user).post(url, ruling, format="json").status_code == 403
    page = _web(carla.user).get(f"/games/reports/{version.reported_game_id}/").content.decode()
    assert "/rule/" not in page
    with capture(execute=True):
        assert client_for(controller).post(url, ruling, format="json").status_code == 201


# --- Defect 4: another championship's organiser sees nothing ----------------------------------


@pytest.fixture
def outsiders():
    """An organiser and a controller of another championship."""
    other_organiser = make_organiser()
    other_controller = UserFactory()
    PlayerFactory(user=other_controller)
    other = services.championship_create(
        actor=other_organiser, name="Other Open", year=2026, category="open", published=True
    )
    other.controllers.add(other_controller)
    return {"organiser": other_organiser, "controller": other_controller}


@pytest.mark.parametrize("published", [True, False])
@pytest.mark.parametrize("who", ["organiser", "controller"])
def test_another_championships_staff_see_and_answer_nothing(
    org_two, acc_one, own_match, outsiders, who, published, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    match, controller, co = own_match
    version = _submit(capture, org_two, ["Org Two", "Acc One"], 45, match)
    championship = match.event.championship
    championship.published = published
    championship.save(update_fields=["published"])
    reported_id = version.reported_game_id
    outsider = outsiders[who]
    api = client_for(outsider)
    assert api.get(f"/api/reports/{reported_id}/").status_code == 404
    assert api.get("/api/reports/waiting/").data == {"waiting": [], "to_rule": []}
    with capture(execute=True):
        answers = [
            api.post(f"/api/reports/versions/{version.pk}/confirm/"),
            api.post(f"/api/reports/versions/{version.pk}/dispute/", {"reason": "x"}),
            api.post(f"/api/reports/{reported_id}/rule/", {"version": 1, "reason": "x"}),
            api.post(f"/api/reports/{reported_id}/reopen/", {"reason": "x"}),
        ]
    assert [a.status_code for a in answers] == [404] * 4
    web = _web(outsider)
    assert web.get(f"/games/reports/{reported_id}/").status_code == 404
    assert web.post(f"/games/reports/versions/{version.pk}/confirm/").status_code == 404
    assert web.post(f"/games/reports/{reported_id}/rule/", {"reason": "x"}).status_code == 404
    version.refresh_from_db()
    assert version.status == ReportStatus.OPEN and not Game.objects.exists()
    # The championship itself answers 404 exactly when unpublished: the report does too.
    assert (
        client_for(outsider).get(f"/api/championships/{championship.pk}/").status_code == 200
    ) == published


def test_an_unpublished_championships_reports_are_hidden_from_its_players(
    org_two, acc_one, own_match, django_capture_on_commit_callbacks
):
    """A player of the game sees its report while the championship is published; once it is
    unpublished, the report is hidden as the championship is, and its own staff still see it."""
    capture = django_capture_on_commit_callbacks
    match, controller, co = own_match
    championship = match.event.championship
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    event = services.event_create(
        actor=org_two, championship=championship, name="KO 2", format="knockout", stage=2
    )
    for player in (ingrid, acc_one):
        services.entry_register(actor=org_two, event=event, player=player)
    services.draw_generate(actor=org_two, event=event, draw_seed=1)
    version = _submit(
        capture, ingrid.user, ["Ingrid", "Acc One"], 46, Match.objects.get(event=event)
    )
    url = f"/api/reports/{version.reported_game_id}/"
    assert client_for(ingrid.user).get(url).status_code == 200
    championship.published = False
    championship.save(update_fields=["published"])
    assert client_for(ingrid.user).get(url).status_code == 404
    assert _web(ingrid.user).get(f"/games/reports/{version.reported_game_id}/").status_code == 404
    assert client_for(controller).get(url).status_code == 200
    assert client_for(co).get(url).status_code == 200
