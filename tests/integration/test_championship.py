"""A World Championship of 150 entrants: groups qualify 128 into a seeded knockout, played to a
champion with self-play records through the real pipeline (Redis, two worker processes)."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import PlayerFactory
from tests.integration.conftest import wait_for
from tests.tournaments.helpers import submit_match_game
from tournaments import services
from tournaments.models import (
    Entry,
    EntrySource,
    EntryStatus,
    EventStatus,
    Match,
    MatchStatus,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

COUNTRIES = ["DE", "NZ", "US", "HU", "GB", "FR", "PL", "CZ", "AU", "NL"]


def play_open_matches(organiser, matches) -> None:
    """Submit one game for each open match; wait until each has counted it."""
    expected = {}
    for match in matches:
        expected[match.pk] = match.games_played + 1
        submission = submit_match_game(organiser, match)
        assert submission.accepted, submission.refusal

    def counted() -> bool:
        rows = Match.objects.filter(pk__in=expected).values_list("pk", "games_played", "status")
        return all(
            games >= expected[pk] or status not in ("scheduled", "in_progress")
            for pk, games, status in rows
        )

    wait_for(counted, timeout=240, interval=0.5, what=f"{len(expected)} games to be counted")


def finish_event(organiser, event) -> None:
    for _ in range(60):  # each pass plays one game of every open match
        open_matches = list(
            Match.objects.filter(
                event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
            ).select_related("entry_a__player", "entry_b__player")
        )
        if not open_matches:
            return
        level = [m for m in open_matches if m.state_reason == "level_needs_ruling"]
        for match in level:  # level after every extra game: the organiser rules on seeds
            winner = min((match.entry_a, match.entry_b), key=lambda e: e.seed)
            services.match_rule(
                actor=organiser,
                match=match,
                winner_entry_id=winner.pk,
                reason="level after the extra games: the higher seed goes on",
            )
        playable = [m for m in open_matches if m not in level]
        if playable:
            play_open_matches(organiser, playable)
    raise AssertionError("the event did not finish")


def test_world_championship_150_entrants_to_a_champion(start_worker, organiser):
    start_worker(concurrency=1)
    start_worker(concurrency=1)
    championship = services.championship_create(
        actor=organiser, name="World Championship", year=2026, category="world", published=True
    )
    qualifier = services.event_create(
        actor=organiser,
        championship=championship,
        name="Qualifying groups",
        stage=1,
        format="groups",
        groups_count=25,
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin="0.1",
    )
    main = services.event_create(
        actor=organiser,
        championship=championship,
        name="Main draw",
        stage=2,
        format="knockout",
        games_per_match=1,
        max_extra_games=3,
        extra_game_margin="0.1",
        feeds_from=qualifier,
        qualifiers_count=128,
        qualifier_policy="against_top_seeds",
    )
    players = [PlayerFactory(country=COUNTRIES[i % len(COUNTRIES)]) for i in range(150)]
    for player in players:
        services.entry_register(actor=organiser, event=qualifier, player=player)
    services.event_seed(actor=organiser, event=qualifier)
    services.draw_generate(actor=organiser, event=qualifier, draw_seed=2026)
    groups = Entry.objects.filter(event=qualifier).values_list("group", flat=True)
    assert sorted(set(groups)) == list(range(1, 26))
    assert Match.objects.filter(event=qualifier).count() == 25 * 15

    finish_event(organiser, qualifier)
    qualifier.refresh_from_db()
    assert qualifier.status == EventStatus.FINISHED

    moved = services.qualifiers_advance(actor=organiser, event=main)
    assert len(moved) == 128
    assert Entry.objects.filter(event=qualifier, status=EntryStatus.QUALIFIED).count() == 128
    assert Entry.objects.filter(event=qualifier, status=EntryStatus.ELIMINATED).count() == 22
    services.event_seed(actor=organiser, event=main)
    services.draw_generate(actor=organiser, event=main, draw_seed=7)
    first_round = Match.objects.filter(event=main, round__number=1).order_by("bracket_index")
    assert first_round.count() == 64
    top = first_round.first()
    assert (top.entry_a.qualifier_rank, top.entry_b.qualifier_rank) == (1, 128)

    finish_event(organiser, main)
    main.refresh_from_db()
    assert main.status == EventStatus.FINISHED and main.champion is not None
    assert main.champion.status == EntryStatus.CHAMPION
    assert main.champion.source == EntrySource.QUALIFIER
    final = Match.objects.get(event=main, next_match=None)
    assert final.winner_id == main.champion_id and final.round.name == "Final"
    assert Entry.objects.filter(event=main, status=EntryStatus.ELIMINATED).count() == 127
    tournament_games = Game.objects.filter(context="tournament")
    assert tournament_games.filter(event_id=main.pk).count() >= 127
    assert tournament_games.filter(event_id=qualifier.pk).count() >= 375
