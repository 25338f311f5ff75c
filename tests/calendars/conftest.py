"""A published knockout of four with round deadlines, whose names need escaping in a calendar
(a comma and a semicolon), and its players with accounts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Q
from django.utils import timezone

from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match

NAMES = ["Ana, the First", "Bela; Second", "Csilla", "Dora"]


@pytest.fixture
def cup(organiser):
    """(event, players): a knockout of four drawn a day ago (14-day rounds)."""
    championship = services.championship_create(
        actor=organiser, name="North, South; Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Main draw", format="knockout"
    )
    players = [PlayerFactory(display_name=name, user=UserFactory(), country="DE") for name in NAMES]
    for player in players:
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(
        actor=organiser, event=event, draw_seed=1, start=timezone.now() - dt.timedelta(days=1)
    )
    return event, players


def match_of(player) -> Match:
    """The player's first-round match."""
    return Match.objects.get(Q(entry_a__player=player) | Q(entry_b__player=player), round__number=1)
