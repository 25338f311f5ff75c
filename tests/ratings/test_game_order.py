"""One order for the ratings: (played time, game id). Late games are inserted in their place,
adjustments are part of the history, and a record too old is refused unless an organiser
enters it for their event."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameRecord, GameSeat, RecordSource, RecordStatus
from ratings import selectors, services
from ratings.models import RatingChange
from ratings.params import lobby_params
from ratings.systems import recompute_lobby
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, selfplay_record
from tests.ratings.helpers import assert_chains_consistent, make_game, rating, value
from tournaments import services as tournament_services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _days_ago(days: float) -> str:
    return (timezone.now() - dt.timedelta(days=days)).isoformat()


def test_a_record_older_than_the_limit_is_refused_for_a_player(settings):
    settings.GAME_RECORD_MAX_AGE_DAYS = 30
    PlayerFactory(display_name="Tomas")
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    record = selfplay_record(3, ["Ingrid", "Tomas"])
    record["played_at"] = _days_ago(31)
    response = client_for(ingrid.user).generic(
        "POST", "/api/games/records/", as_body(record), content_type="application/json"
    )
    assert response.status_code == 400
    assert "more than 30 days ago" in response.json()["played_at"][0]
    assert GameRecord.objects.get(pk=response.json()["submission"]["id"]).status == "invalid"
    record["played_at"] = _days_ago(29)
    fresh = client_for(ingrid.user).generic(
        "POST", "/api/games/records/", as_body(record), content_type="application/json"
    )
    assert fresh.status_code == 202


def test_an_organiser_may_enter_an_old_game_for_their_event(
    organiser, settings, django_capture_on_commit_callbacks
):
    settings.GAME_RECORD_MAX_AGE_DAYS = 30
    championship = tournament_services.championship_create(
        actor=organiser, name="Old Open", year=2026, category="open", published=True
    )
    event = tournament_services.event_create(
        actor=organiser, championship=championship, format="knockout", name="Main"
    )
    for _ in range(2):
        tournament_services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    tournament_services.draw_generate(actor=organiser, event=event, draw_seed=1)
    match = Match.objects.get(event=event)
    record = selfplay_record(
        5, [match.entry_a.player.display_name, match.entry_b.player.display_name]
    )
    record["played_at"] = _days_ago(45)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(organiser).generic(
            "POST",
            f"{reverse('api-record-list')}?match={match.pk}",
            json.dumps(record).encode(),
            content_type="application/json",
        )
    assert response.status_code == 202, response.json()


def test_a_late_game_is_inserted_in_its_place_and_later_games_replayed():
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    now = timezone.now()
    g1 = make_game([a, b], [20, 10], played_at=now - dt.timedelta(minutes=30))
    g3 = make_game([b, c], [12, 18], played_at=now - dt.timedelta(minutes=10))
    for g in (g1, g3):
        services.game_ratings_apply(game_id=g.pk)
    late = make_game([a, c], [9, 19], played_at=now - dt.timedelta(minutes=20))
    services.game_ratings_apply(game_id=late.pk)
    replay = recompute_lobby(
        [(a.pk, b.pk, 20, 10, False), (a.pk, c.pk, 9, 19, False), (b.pk, c.pk, 12, 18, False)],
        params=lobby_params(),
    )
    for player in (a, b, c):
        assert value(player) == replay.ratings[player.pk]
    # b's game with c was recalculated: a new version, and the history reads in game order.
    step = RatingChange.objects.get(
        game=g3, player=b, system="lobby", replaced_by__isnull=True, at__isnull=False
    )
    assert step.reason == "replay" and step.replaces.reason == "game"
    history = selectors.rating_history(player_id=c.pk, system="lobby")
    assert [h.game_id for h in history] == [late.pk, g3.pk]
    assert_chains_consistent()


def test_a_late_game_in_an_old_month_leaves_the_monthly_row_in_this_month():
    a, b = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    services.game_ratings_apply(game_id=make_game([a, b], [20, 10], played_at=now).pk)
    month = rating(a, "monthly").period
    last_month = now - dt.timedelta(days=40)
    services.game_ratings_apply(game_id=make_game([a, b], [5, 25], played_at=last_month).pk)
    assert rating(a, "monthly").period == month  # not moved back to the old month
    assert rating(a, "monthly").games == 1
    assert_chains_consistent()


def test_an_adjustment_survives_a_recompute_and_a_late_game_before_it(admin_user):
    a, b = PlayerFactory(), PlayerFactory()
    now = timezone.now()
    services.game_ratings_apply(
        game_id=make_game([a, b], [20, 10], played_at=now - dt.timedelta(hours=2)).pk
    )
    services.rating_adjust(
        actor=admin_user, player_id=a.pk, system="lobby", delta=5.0, reason="fair play bonus"
    )
    adjusted = value(a)
    result = services.ratings_recompute(systems=["lobby"])
    assert (result.systems["lobby"].steps, result.systems["lobby"].corrected) == (0, 0)
    assert value(a) == adjusted
    # A game played before the adjustment arrives late: the +5 is applied again after it.
    services.game_ratings_apply(
        game_id=make_game([a, b], [3, 30], played_at=now - dt.timedelta(hours=1)).pk
    )
    replay = recompute_lobby(
        [(a.pk, b.pk, 20, 10, False), (a.pk, b.pk, 3, 30, False)], params=lobby_params()
    )
    assert value(a) == min(1000.0, replay.ratings[a.pk] + 5.0)
    assert services.ratings_recompute(systems=["lobby"]).systems["lobby"].steps == 0
    assert_chains_consistent()


def _bulk_games(players, count: int, start: dt.datetime, span: dt.timedelta, rnd) -> None:
    """``count`` two-player games spread over ``span`` from ``start``, written in bulk."""
    records = GameRecord.objects.bulk_create(
        GameRecord(
            body=b"{}",
            source=RecordSource.IMPORT,
            status=RecordStatus.VALID,
            seat_players=[],
            adjudicated_at=start,
        )
        for _ in range(count)
    )
    step = span / count
    games, seats = [], []
    for i, record in enumerate(records):
        p, q = rnd.sample(players, 2)
        s0, s1 = rnd.randrange(0, 40), rnd.randrange(0, 40)
        winner = None if s0 == s1 else (0 if s0 > s1 else 1)
        games.append(
            Game(
                record=record,
                players_count=2,
                winner_seat=winner,
                is_draw=winner is None,
                end_reason="completed",
                placements=[],
                placements_count=56,
                turns=56,
                played_at=start + step * i,
            )
        )
        seats.append((p, s0, q, s1))
    Game.objects.bulk_create(games)
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, player=player, colour=colour, score=score)
        for game, (p, s0, q, s1) in zip(games, seats, strict=True)
        for seat, player, colour, score in ((0, p, "red", s0), (1, q, "blue", s1))
    )


def test_a_game_a_week_back_among_ten_thousand_stored_games():
    rnd = random.Random(11)
    players = [PlayerFactory() for _ in range(200)]
    now = timezone.now()
    _bulk_games(players, 10_000, now - dt.timedelta(days=28), dt.timedelta(days=28), rnd)
    first = services.ratings_recompute(systems=["lobby"])  # rates them all, in game order
    assert first.systems["lobby"].steps == 20_000
    a, b = players[0], players[1]
    late = make_game([a, b], [25, 11], played_at=now - dt.timedelta(days=7))
    services.game_ratings_apply(game_id=late.pk)
    recalculated = RatingChange.objects.filter(reason="replay", system="lobby").count()
    assert recalculated > 0  # later games of a, b and everyone they reached were replayed
    again = services.ratings_recompute(systems=["lobby"])
    assert (again.systems["lobby"].steps, again.systems["lobby"].corrected) == (0, 0)
    assert rating(a).games == Game.objects.filter(seats__player=a).count()


def test_an_elo_adjustment_survives_a_recompute(admin_user):
    a, b = PlayerFactory(), PlayerFactory()
    played = timezone.now() - dt.timedelta(hours=3)
    game = make_game([a, b], [20, 10], played_at=played, event_id=77, tps=[15.0, 5.0])
    services.game_ratings_apply(game_id=game.pk)
    services.elo_event_recalculate(event_id=77)
    services.rating_adjust(
        actor=admin_user, player_id=a.pk, system="elo", delta=5.0, reason="scoring fix"
    )
    adjusted = value(a, "elo")
    result = services.ratings_recompute(systems=["elo"])
    assert result.systems["elo"].corrected == 0
    assert value(a, "elo") == adjusted
