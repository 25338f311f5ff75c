"""A drawn two-player knockout whose single match is open, for the arrangement tests."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from players.models import Player
from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Championship, Event, Match

_names = itertools.count(1)


@dataclass
class Arena:
    championship: Championship
    event: Event
    match: Match
    ana: Player  # side A
    bela: Player  # side B
    controller: object


def arena(organiser, *, zones: tuple[str, str] = ("Europe/Budapest", "America/New_York")) -> Arena:
    championship = services.championship_create(
        actor=organiser, name=f"Arranged Cup {next(_names)}", year=2026, published=True
    )
    controller = UserFactory()
    PlayerFactory(user=controller)
    championship.controllers.add(controller)
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    ana = PlayerFactory(with_user=True, time_zone=zones[0])
    bela = PlayerFactory(with_user=True, time_zone=zones[1])
    for player in (ana, bela):
        services.entry_register(actor=organiser, event=event, player=player)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.select_related("entry_a", "entry_b").get(event=event)
    if match.entry_a.player_id != ana.pk:
        ana, bela = bela, ana
    return Arena(championship, event, match, ana, bela, controller)
