"""Concurrency settled in PostgreSQL: the race without the lock, then the lock holding; and the
same game delivered to real Celery workers at once, rated exactly once."""

from __future__ import annotations

import datetime as dt
import random
import re
import threading
import time

import pytest
from django.db import IntegrityError, connection
from django.utils import timezone

from games import services as game_services
from games.models import Game, GameReport
from games.reports import report_confirm
from ratings import selectors, services
from ratings.models import PendingRating, Rating, RatingChange
from ratings.params import lobby_params
from ratings.services import apply, scheduling
from ratings.systems import recompute_lobby
from ratings.tasks import apply_game
from tests.factories import PlayerFactory
from tests.games.helpers import as_body, selfplay_record
from tests.integration.conftest import wait_for
from tests.ratings.helpers import assert_chains_consistent, make_game, rating, value

pytestmark = pytest.mark.django_db(transaction=True)

# Workers that wait a second between reading ratings and writing them (fault injection).
SLOW_WORKER_SETTINGS = "tests.ratings.worker_settings"


def _concurrently(game_ids: list[int]) -> list[Exception]:
    """Apply each game in its own thread (own database connection), all released at once."""
    barrier = threading.Barrier(len(game_ids))
    errors: list[Exception] = []

    def run(game_id: int) -> None:
        try:
            barrier.wait()
            services.game_ratings_apply(game_id=game_id)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(gid,)) for gid in game_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


@pytest.fixture
def two_games(settings):
    """A plays B and C in two games delivered at the same moment.

    Played ten days ago, outside the sweep window, so neither application drains the other:
    the two transactions really race. Rating rows exist, so the race is a lost update.
    """
    settings.RATINGS_APPLY_DELAY_SECONDS = 0.4
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    played = timezone.now() - dt.timedelta(days=10)
    period = services.game_period(played)
    for p in (a, b, c):
        Rating.objects.create(player=p, system="lobby", value=500.0)
        Rating.objects.create(player=p, system="monthly", value=700.0, period=period)
    g1 = make_game([a, b], [19, 10], played_at=played)
    g2 = make_game([a, c], [19, 10], played_at=played + dt.timedelta(minutes=1))
    return a, g1, g2


def _unlocked_and_meeting_between_read_and_write(monkeypatch, parties: int) -> None:
    """Without the lock, and with every application waiting for the others after it read the
    ratings and before it writes: the lost update happens on every run. A fixed delay there
    (RATINGS_APPLY_DELAY_SECONDS) only made it likely; on a loaded machine one thread could
    start after the other had written, and the test failed now and then."""
    monkeypatch.setattr(apply, "lock_tables", lambda *names: None)
    monkeypatch.setattr(
        apply, "_fault_injection_delay", threading.Barrier(parties, timeout=30).wait
    )


def test_without_the_lock_two_games_of_one_player_lose_an_update(two_games, monkeypatch):
    a, g1, g2 = two_games
    _unlocked_and_meeting_between_read_and_write(monkeypatch, 2)
    assert _concurrently([g1.pk, g2.pk]) == []
    changes = list(RatingChange.objects.filter(player=a, system="lobby"))
    assert len(changes) == 2
    # Both games started from 500: the second write overwrote the first.
    assert changes[0].before == changes[1].before == 500.0
    assert rating(a).games == 1


def test_with_the_lock_both_games_count_in_order(two_games):
    a, g1, g2 = two_games
    assert _concurrently([g1.pk, g2.pk]) == []
    # Whichever was applied first, the timeline holds both games in game order (the later one
    # recalculated when the earlier one came second).
    first, second = selectors.rating_history(player_id=a.pk, system="lobby")
    assert (first.game_id, second.game_id) == (g1.pk, g2.pk)
    assert second.before == first.after
    assert rating(a).games == 2
    won_once = first.after
    assert won_once == pytest.approx(506.0, abs=1e-9)  # 500 + 2·√9·1, by hand (version 2)
    assert rating(a).value == second.after > won_once
    assert_chains_consistent()


def test_without_the_lock_the_database_still_refuses_a_duplicate(two_games, monkeypatch):
    a, g1, _ = two_games
    _unlocked_and_meeting_between_read_and_write(monkeypatch, 2)
    errors = _concurrently([g1.pk, g1.pk])
    assert len(errors) == 1 and isinstance(errors[0], IntegrityError)
    assert "rating_change_once_per_game_system" in str(errors[0])
    assert RatingChange.objects.filter(game=g1).count() == 4


def test_with_the_lock_a_duplicate_delivery_finds_the_work_done(two_games):
    _, g1, _ = two_games
    assert _concurrently([g1.pk, g1.pk, g1.pk]) == []
    assert RatingChange.objects.filter(game=g1).count() == 4


@pytest.mark.integration
def test_same_game_delivered_three_times_at_once_is_rated_once(start_worker):
    a, b = PlayerFactory(), PlayerFactory()
    game = make_game([a, b], [19, 10])
    start_worker(concurrency=2, DJANGO_SETTINGS_MODULE=SLOW_WORKER_SETTINGS)
    start_worker(concurrency=1, DJANGO_SETTINGS_MODULE=SLOW_WORKER_SETTINGS)
    for _ in range(3):
        apply_game.delay(game.pk)
    wait_for(
        lambda: RatingChange.objects.filter(game=game, system="monthly").count() == 2,
        timeout=60,
        what="the rating changes",
    )
    time.sleep(4)  # let every duplicate delivery run to its end
    assert RatingChange.objects.filter(game=game).count() == 4
    assert rating(a).games == rating(b).games == 1
    # By hand (version 2): 500 beats 500 by 9, base = 2·√9 = 6; both drags 1 at 500: ±6.
    assert rating(a).value == pytest.approx(506.0, abs=1e-9)
    assert rating(b).value == 494.0


@pytest.mark.integration
def test_a_submitted_game_is_rated_by_the_workers(start_worker):
    ingrid = PlayerFactory(display_name="Ingrid", with_user=True)
    tomas = PlayerFactory(display_name="Tomas", with_user=True)
    start_worker()
    submission = game_services.record_submit(
        actor=ingrid.user, body=as_body(selfplay_record(21, ["Ingrid", "Tomas"]))
    )
    # Ingrid's game is a report until Tomas agrees (games/reports): he confirms it once the
    # worker has adjudicated it, and only then is it rated.
    reports = GameReport.objects.filter(record_id=submission.record.pk)
    wait_for(reports.exists, timeout=60, what="adjudication")
    report_confirm(actor=tomas.user, report_id=reports.get().pk)
    wait_for(
        lambda: RatingChange.objects.filter(system="lobby").count() == 2,
        timeout=60,
        what="adjudication, then the ratings",
    )
    game = Game.objects.get(record_id=submission.record.pk)
    first, second = game.seats.order_by("seat")
    assert {first.player_id, second.player_id} == {ingrid.pk, tomas.pk}
    assert (first.score, second.score, game.winner_seat) == (17, 13, 0)
    # By hand (docs/ratings.md §1, version 2): 500 beats 500 by 4 tiles, base = 2·√4 = 4;
    # at 500 both drags are 1: winner +4, loser −4.
    lobby = dict(Rating.objects.filter(system="lobby").values_list("player_id", "value"))
    assert lobby[first.player_id] == 504.0
    assert lobby[second.player_id] == 496.0
    assert RatingChange.objects.filter(game=game, reason="game").count() == 4


@pytest.mark.integration
def test_a_burst_of_announced_games_is_applied_by_the_workers_in_a_few_batches(start_worker):
    players = [PlayerFactory() for _ in range(6)]
    rnd = random.Random(8)
    games, tuples = [], []
    for _ in range(60):
        p, q = rnd.sample(players, 2)
        scores = [rnd.randrange(0, 40), rnd.randrange(0, 40)]
        games.append(make_game([p, q], scores))
        tuples.append((p.pk, q.pk, scores[0], scores[1], False))
    scheduling.apply_queued().release()  # nothing left scheduled by an earlier test
    workers = [start_worker(), start_worker()]
    for game in games:  # as the adjudicating workers announce them
        services.enqueue_game_ratings(game.pk)
    wait_for(
        lambda: RatingChange.objects.filter(system="monthly").count() == 120
        and not PendingRating.objects.exists(),
        timeout=60,
        what="the ratings of 60 games",
    )
    time.sleep(2)  # let any further task run to its end
    assert RatingChange.objects.filter(reason="game").count() == 240  # each game once
    assert_chains_consistent()
    replay = recompute_lobby(
        (
            services.duel_tuple(p, sp, q, sq, 0 if sp > sq else 1 if sq > sp else None, False)
            for p, q, sp, sq, _ in tuples
        ),
        params=lobby_params(),
    )
    for player in players:
        assert value(player) == replay.ratings[player.pk]  # in game order, bit-identical
    batches = [int(n) for w in workers for n in re.findall(r"applied (\d+) game\(s\)", w.output())]
    assert sum(batches) == 60 and len(batches) < 60
