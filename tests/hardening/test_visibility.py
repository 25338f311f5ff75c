"""Regression tests: a controller's power stays in its championship; private games stay private."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, GameRecord
from tests.conftest import client_for
from tests.factories import PlayerFactory, make_organiser
from tests.games.helpers import as_body, confirm_open_reports, selfplay_record
from tests.tournaments.helpers import submit_match_game
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def post_record(client, body: bytes, query: str = ""):
    return client.generic(
        "POST", f"/api/games/records/{query}", body, content_type="application/json"
    )


@pytest.fixture
def private_match(organiser, django_capture_on_commit_callbacks):
    """A drawn knockout match in an unpublished championship, with one game counted."""
    championship = services.championship_create(
        actor=organiser, name="Closed Cup", year=2026, category="national", published=False
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    lucas = PlayerFactory(display_name="Lucas", with_user=True)
    kasia = PlayerFactory(display_name="Kasia", with_user=True)
    for player in (lucas, kasia):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        assert submit_match_game(organiser, match).accepted  # staff of this championship
    return match


def test_a_controller_cannot_submit_casual_games_for_other_players(organiser):
    championship = services.championship_create(
        actor=organiser, name="Private", year=2026, category="national", published=False
    )
    crony = PlayerFactory(with_user=True)
    services.championship_staff_set(
        actor=organiser, championship=championship, user=crony.user, role="controller"
    )
    PlayerFactory(display_name="Anna")
    PlayerFactory(display_name="Bela")
    body = as_body(selfplay_record(4, ["Anna", "Bela"]))
    for actor in (crony.user, organiser):
        response = post_record(client_for(actor), body)
        assert response.status_code == 403, response.data
        assert response.data["submission"]["code"] == "NOT_PARTICIPANT"
    assert not Game.objects.exists()


def test_games_of_an_unpublished_championship_are_hidden_from_the_public(
    private_match, organiser, outsider
):
    game = Game.objects.get()
    assert game.event_id == private_match.event_id
    query = f"/api/games/?event={private_match.event_id}"
    assert client_for(None).get(query).data["count"] == 0
    assert client_for(outsider).get(query).data["count"] == 0
    assert client_for(None).get("/api/games/").data["count"] == 0
    assert client_for(None).get(f"/api/games/{game.pk}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    assert "Lucas" not in Client().get("/games/").content.decode()
    assert client_for(organiser).get(query).data["count"] == 1
    player = private_match.entry_a.player
    assert client_for(None).get(f"/api/games/?player={player.pk}").data["count"] == 0


def test_casual_games_stay_public(private_match, django_capture_on_commit_callbacks):
    lucas = private_match.entry_a.player
    kasia = private_match.entry_b.player
    with django_capture_on_commit_callbacks(execute=True):
        post_record(client_for(lucas.user), as_body(selfplay_record(8, ["Lucas", "Kasia"])))
    confirm_open_reports()  # Kasia agrees (games/reports)
    assert kasia.pk and client_for(None).get("/api/games/").data["count"] == 1


def test_the_match_validator_tells_outsiders_nothing(private_match, outsider):
    body = as_body(selfplay_record(4, ["Lucas", "Kasia"]))
    response = post_record(client_for(outsider), body, f"?match={private_match.pk}")
    assert response.status_code == 400
    text = " ".join(response.data["match"])
    assert "Lucas" not in text and "Kasia" not in text
    missing = post_record(client_for(outsider), body, "?match=99999999")
    assert " ".join(missing.data["match"]).replace("99999999", str(private_match.pk)) == text
    huge = post_record(client_for(outsider), body, "?match=" + "9" * 40)
    assert huge.status_code == 400
    assert GameRecord.objects.filter(error_code="REJECTED").count() == 3


def test_a_controller_submits_for_a_match_of_their_championship(
    private_match, organiser, django_capture_on_commit_callbacks
):
    controller = make_organiser()
    services.championship_staff_set(
        actor=organiser,
        championship=private_match.event.championship,
        user=controller,
        role="controller",
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = submit_match_game(controller, private_match)
    assert response.accepted, response.refusal
