"""Fixtures for roles and claims: the five people every new view is checked against."""

from __future__ import annotations

import pytest

from players import services
from tests.factories import PlayerFactory, UserFactory

ROLES = ["anonymous", "player", "organiser", "other_organiser", "staff"]


@pytest.fixture
def staff(db):
    """Staff, not a superuser (superusers alone grant the staff role)."""
    user = UserFactory(is_staff=True)
    PlayerFactory(user=user)
    return user


@pytest.fixture
def entered(organiser):
    """An accountless player that `organiser` entered."""
    return services.player_create(actor=organiser, display_name="Offline Olga", country="PL")


@pytest.fixture
def people(user_player, organiser, co_organiser, staff):
    """Role name → user (None for anonymous). `organiser` entered the `entered` player."""
    return {
        "anonymous": None,
        "player": user_player.user,
        "organiser": organiser,
        "other_organiser": co_organiser,
        "staff": staff,
    }
