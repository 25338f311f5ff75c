"""A match between two players with accounts, its controller and organiser, and an outsider."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match


@pytest.fixture
def ingrid(db):
    return PlayerFactory(display_name="Ingrid", with_user=True)


@pytest.fixture
def tomas(db):
    return PlayerFactory(display_name="Tomas", with_user=True)


@pytest.fixture
def ghost(organiser):
    """A player the organiser entered, without an account (the organiser answers for them)."""
    return PlayerFactory(display_name="Ghost", created_by=organiser)


@pytest.fixture
def controller(db):
    user = UserFactory(username="controller")
    PlayerFactory(user=user, display_name="Carla")
    return user


@pytest.fixture
def match(organiser, controller, ingrid, tomas):
    championship = services.championship_create(
        actor=organiser, name="Report Open", year=2026, category="open", published=True
    )
    championship.controllers.add(controller)
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="KO",
        format="knockout",
        games_per_match=3,
    )
    for player in (ingrid, tomas):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return Match.objects.select_related("entry_a__player", "entry_b__player").get(event=event)
