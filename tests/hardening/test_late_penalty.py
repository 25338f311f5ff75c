"""Regression: a controller's late time penalty on a decided match moves the match totals too."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from games import services as game_services
from tests.factories import PlayerFactory
from tests.games.helpers import selfplay_record
from tournaments import services
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


def decided_one_game_match(organiser, django_capture_on_commit_callbacks, clock):
    championship = services.championship_create(
        actor=organiser, name="Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="KO",
        format="knockout",
        games_per_match=1,
    )
    for _ in range(2):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    names = [match.entry_a.player.display_name, match.entry_b.player.display_name]
    for seed in range(50):
        record = selfplay_record(seed, names)
        record["clock"] = clock
        with django_capture_on_commit_callbacks(execute=True):
            game_services.record_submit(
                actor=organiser,
                body=json.dumps(record).encode(),
                extensions={"match": match.pk},
            )
        match.refresh_from_db()
        if match.status == MatchStatus.DECIDED:
            return match
    raise AssertionError("no decisive game")


def test_a_late_penalty_moves_the_decided_match_totals(
    organiser, django_capture_on_commit_callbacks
):
    match = decided_one_game_match(organiser, django_capture_on_commit_callbacks, [1025, 1025])
    loser_side = 1 if match.winner_id == match.entry_a_id else 0
    match_game = match.match_games.get()
    before = (match.tps_a, match.tps_b)
    services.match_penalty_claim(actor=organiser, match_game=match_game, side=loser_side)
    match.refresh_from_db()
    match_game.refresh_from_db()
    assert (match.tps_a, match.tps_b) == (match_game.tps_a, match_game.tps_b) != before
    assert match.status == MatchStatus.DECIDED


def test_a_late_penalty_that_would_change_the_winner_needs_a_ruling(
    organiser, django_capture_on_commit_callbacks
):
    match = decided_one_game_match(organiser, django_capture_on_commit_callbacks, [3000, 3000])
    winner_side = 0 if match.winner_id == match.entry_a_id else 1
    match_game = match.match_games.get()
    before = (match.tps_a, match.tps_b, match_game.tps_a, match_game.tps_b)
    with pytest.raises(ValidationError, match="make a ruling"):
        services.match_penalty_claim(actor=organiser, match_game=match_game, side=winner_side)
    match.refresh_from_db()
    match_game.refresh_from_db()
    assert (match.tps_a, match.tps_b, match_game.tps_a, match_game.tps_b) == before
