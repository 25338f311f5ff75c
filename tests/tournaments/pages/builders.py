"""Events of championship size for the page tests and the bench: built through the services
(entries bulk-created, then seeded, drawn, ruled and played as an organiser would)."""

from __future__ import annotations

import itertools

from players.models import Player
from tests.tournaments.helpers import submit_match_game
from tournaments import services
from tournaments.models import Championship, Entry, Event, Match, MatchStatus

COUNTRIES = ["DE", "NZ", "US", "HU", "GB", "FR", "PL", "CZ", "AU", "NL", "IT", "ES"]
FIRST = ["Ana", "Bela", "Cara", "Dov", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jana", "Kai", "Lea"]
_batch = itertools.count(1)


def players(count: int) -> list[Player]:
    batch = next(_batch)
    return Player.objects.bulk_create(
        Player(
            display_name=f"{FIRST[i % len(FIRST)]} {batch:02d}-{i:03d}",
            country=COUNTRIES[i % len(COUNTRIES)],
        )
        for i in range(count)
    )


def championship(organiser, name: str = "World Championship") -> Championship:
    return services.championship_create(
        actor=organiser, name=f"{name} {next(_batch)}", year=2026, category="world", published=True
    )


def _event(organiser, champ: Championship, entrants: int, **config) -> Event:
    event = services.event_create(actor=organiser, championship=champ, **config)
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players(entrants))
    services.event_seed(actor=organiser, event=event)
    return event


def knockout(organiser, champ: Championship, entrants: int, *, ruled_rounds: int = 1) -> Event:
    """A drawn knockout whose first `ruled_rounds` rounds are decided by rulings, with the
    next round's first match in progress on TPs."""
    event = _event(organiser, champ, entrants, name=f"Knockout of {entrants}", format="knockout")
    services.draw_generate(actor=organiser, event=event, draw_seed=7)
    for number in range(1, ruled_rounds + 1):
        for match in Match.objects.filter(
            event=event, round__number=number, status=MatchStatus.SCHEDULED
        ).select_related("event__championship"):
            services.match_rule(
                actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="sheet"
            )
    return event


def group_stage(organiser, champ: Championship, entrants: int, groups: int) -> Event:
    """A drawn group stage with its first round ruled in every group."""
    event = _event(
        organiser,
        champ,
        entrants,
        name=f"Groups of {entrants}",
        format="groups",
        groups_count=groups,
    )
    services.draw_generate(actor=organiser, event=event, draw_seed=7)
    for match in Match.objects.filter(event=event, round__number=1).select_related(
        "event__championship"
    ):
        services.match_rule(
            actor=organiser, match=match, winner_entry_id=match.entry_b_id, reason="sheet"
        )
    return event


def play(organiser, match: Match, capture) -> None:
    """One self-played game for the match, counted as the worker would count it."""
    with capture(execute=True):
        submit_match_game(organiser, match)
