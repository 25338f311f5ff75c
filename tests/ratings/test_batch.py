"""Announced games applied in batches: the work list, game order across batches, bulk reviews,
the cost of a batch, and the scheduling that turns a burst of games into a few tasks."""

from __future__ import annotations

import datetime as dt
import random
import uuid

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings import services, tasks
from ratings.models import PendingRating, RatingChange, Review, Title
from ratings.params import lobby_params
from ratings.services import scheduling
from ratings.systems import recompute_lobby
from tantrix_site import queueing
from tests.factories import PlayerFactory
from tests.ratings.helpers import assert_chains_consistent, make_game, rating, snapshot, value
from tests.ratings.test_revert_recompute import _history

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return [PlayerFactory() for _ in range(6)]


def _announce(*games) -> None:
    for game in games:
        assert services.game_ratings_announce(game.pk) is True


def _duels(players, n: int, rnd: random.Random) -> list:
    games = []
    for _ in range(n):
        p, q = rnd.sample(players, 2)
        scores = [rnd.randrange(0, 40), rnd.randrange(0, 40)]
        games.append(make_game([p, q], scores))
    return games


def _replay(games) -> object:
    tuples = []
    for game in sorted(games, key=lambda g: (g.played_at, g.pk)):
        s0, s1 = game.seats.order_by("seat")
        tuples.append(
            services.duel_tuple(
                s0.player_id, s0.score, s1.player_id, s1.score, game.winner_seat, False
            )
        )
    return recompute_lobby(tuples, params=lobby_params())


def test_announcing_lists_ratable_games_once(players):
    a, b, c, d = players[:4]
    duel = make_game([a, b], [19, 10])
    pairs = make_game([a, b, c, d], [14, 10, 14, 10], winner=0, pairs=True)
    free_for_all = make_game([a, b, c], [10, 20, 15])
    invalid = make_game([a, b], [19, 10], status="invalid")
    assert services.game_ratings_announce(duel.pk) is True
    assert services.game_ratings_announce(duel.pk) is False  # announced before
    assert services.game_ratings_announce(pairs.pk) is True
    assert services.game_ratings_announce(free_for_all.pk) is False
    assert services.game_ratings_announce(invalid.pk) is False
    pending = PendingRating.objects.get(game=duel)
    assert pending.played_at == duel.played_at
    assert set(PendingRating.objects.values_list("game_id", flat=True)) == {duel.pk, pairs.pk}


def test_a_burst_announced_out_of_order_is_applied_in_game_order_in_one_batch(players):
    games = _duels(players, 30, random.Random(3))
    _announce(*reversed(games))
    batch = services.games_ratings_apply_announced()
    assert batch.games_moved == 30 and not batch.more
    assert not PendingRating.objects.exists()
    replay = _replay(games)
    assert set(replay.ratings) == {p.pk for p in players}
    for player in players:
        assert value(player) == replay.ratings[player.pk]  # bit-identical
        assert rating(player).games == replay.games[player.pk]
    lobby = RatingChange.objects.filter(system="lobby").order_by("id")
    order = [(g.played_at, g.pk) for g in games]
    assert [c.game_id for c in lobby[::2]] == [pk for _, pk in sorted(order)]
    assert_chains_consistent()


def test_a_batch_costs_the_same_queries_for_few_games_or_many(players, settings):
    settings.RATINGS_REVIEW_SWING_POINTS = 1000.0  # no review rows: the same statements
    settings.RATINGS_REVIEW_REPEAT_GAMES = 1000
    rnd = random.Random(5)
    counts = []
    for n in (3, 40):
        _announce(*_duels(players, n, rnd))
        with CaptureQueriesContext(connection) as ctx:
            assert services.games_ratings_apply_announced().games_moved == n
        counts.append(len(ctx.captured_queries))
    # One lock statement, then per table: the timeline after the batch's first game, the
    # standings brought, the changes and the Rating rows (bulk); the same for 3 games or 40.
    assert counts[0] == counts[1] <= 20


def test_a_duplicate_task_that_finds_nothing_costs_one_query(players, django_assert_num_queries):
    a, b = players[:2]
    game = make_game([a, b], [19, 10])
    _announce(game)
    services.games_ratings_apply_announced(game_id=game.pk)
    with django_assert_num_queries(1):
        assert services.games_ratings_apply_announced().moved == {}
    with django_assert_num_queries(2):  # and is this game applied already?
        assert services.games_ratings_apply_announced(game_id=game.pk).moved == {}
    assert RatingChange.objects.filter(game=game).count() == 4


def test_the_batch_size_cuts_at_a_game_and_the_next_batch_goes_on_in_order(players, settings):
    settings.RATINGS_APPLY_BATCH_GAMES = 3
    games = _duels(players, 8, random.Random(11))
    _announce(*reversed(games))
    batch = services.games_ratings_apply_announced()
    assert batch.more and batch.games_moved == 3
    assert set(batch.moved) == {g.pk for g in games[:3]}  # the three played first
    # Asking for the last game applies the batches before it first, in game order.
    assert services.game_ratings_apply(game_id=games[-1].pk) == ["lobby", "monthly"]
    assert not PendingRating.objects.exists()
    replay = _replay(games)
    for player in players:
        assert value(player) == replay.ratings.get(player.pk)
    assert_chains_consistent()


def test_an_unannounced_game_takes_the_earlier_unrated_games_along(players):
    a, b, c, _, _, _ = players
    first = make_game([a, b], [19, 10])
    lost = make_game([a, c], [8, 20])  # its announcement was lost
    later = make_game([b, c], [15, 14])
    _announce(first, later)
    assert services.game_ratings_apply(game_id=lost.pk) == ["lobby", "monthly"]
    lobby = list(RatingChange.objects.filter(system="lobby").order_by("id"))
    assert [ch.game_id for ch in lobby[::2]] == [first.pk, lost.pk, later.pk]
    assert not PendingRating.objects.exists()
    assert_chains_consistent()


def test_games_no_table_can_take_do_not_keep_an_application_going(players, settings):
    settings.RATINGS_APPLY_BATCH_GAMES = 2
    a, b, c, _, _, _ = players
    for _ in range(3):  # unrated by the query (two players) but with one seat: never applied
        make_game([a, b], [19, 10]).seats.filter(seat=1).delete()
    game = make_game([a, c], [19, 10])
    assert services.game_ratings_apply(game_id=game.pk) == []  # ends, without progress
    assert services.ratings_sweep()["applied"] == 1  # the sweep's run is long enough
    assert rating(a).games == 1


def test_the_sweep_applies_announced_and_never_announced_games(players):
    a, b, c, _, _, _ = players
    old = make_game([a, b], [19, 10], played_at=timezone.now() - dt.timedelta(days=10))
    _announce(old)  # an import of an old record: outside the window, but announced
    recent = make_game([a, c], [19, 10])  # never announced
    assert services.ratings_sweep() == {"applied": 2, "flagged": 0}
    assert not PendingRating.objects.exists()
    assert rating(a).games == 2 and rating(a).last_game_id == recent.pk


def test_reviews_are_flagged_from_the_batch(players, settings):
    a, b, c, _, _, _ = players
    settings.RATINGS_REVIEW_SWING_POINTS = 3.9
    settings.RATINGS_REVIEW_REPEAT_GAMES = 3
    games = [make_game([a, b], [19, 10]) for _ in range(2)]
    games.append(make_game([b, a], [10, 19]))  # a wins from the other seat
    games.append(make_game([a, c], [19, 10]))
    games.append(make_game([a, b], [19, 10]))
    games.append(make_game([a, b], [10, 19]))  # b wins: not a win of a over b
    _announce(*games)
    services.games_ratings_apply_announced()
    repeated = Review.objects.get(kind="repeated_results")
    assert (repeated.player, repeated.game_id, repeated.detail) == (
        a,
        games[2].pk,
        {"opponent": b.pk, "wins": 3, "hours": settings.RATINGS_REVIEW_REPEAT_HOURS},
    )
    assert repeated.change == RatingChange.objects.get(game=games[2], player=a, system="lobby")
    swings = Review.objects.filter(kind="large_swing")
    assert swings.exists() and all(r.change.system != "monthly" for r in swings)
    assert all(abs(r.change.delta) >= 3.9 and r.game_id == r.change.game_id for r in swings)
    # A later batch does not flag the pair again within the window.
    _announce(make_game([a, b], [19, 10]))
    services.games_ratings_apply_announced()
    assert Review.objects.filter(kind="repeated_results").count() == 1


def test_the_master_table_takes_games_played_while_both_held_the_title(players, admin_user):
    a, b, _, _, _, _ = players
    before = make_game([a, b], [19, 10])
    after = make_game([b, a], [19, 10])
    for player in (a, b):
        Title.objects.create(
            player=player,
            awarded_at=before.played_at + dt.timedelta(seconds=30),
            awarded_by=admin_user,
        )
    _announce(before, after)
    batch = services.games_ratings_apply_announced()
    assert batch.moved == {
        before.pk: ["lobby", "monthly"],
        after.pk: ["lobby", "monthly", "master"],
    }


def test_a_history_announced_in_random_order_equals_the_recompute(admin_user, settings):
    settings.RATINGS_APPLY_BATCH_GAMES = 7  # many batches, each cut at a game
    players = [PlayerFactory() for _ in range(7)]
    robot = PlayerFactory(is_robot=True)
    games = _history(players, robot, players[:6], admin_user)
    random.Random(2).shuffle(games)
    _announce(*games)
    moved = tasks.apply_game.delay(None)  # eager: the task goes on batch after batch
    assert moved.get() == []
    assert not PendingRating.objects.exists()
    services.elo_event_recalculate(event_id=11)
    incremental = snapshot()
    assert {system for _, system in incremental} == {"lobby", "monthly", "doubles", "master", "elo"}
    assert_chains_consistent()
    result = services.ratings_recompute(progress=False)
    assert {s: r.corrected for s, r in result.systems.items()} == dict.fromkeys(
        ("lobby", "monthly", "master", "doubles", "elo"), 0
    )
    assert snapshot() == incremental


# --- Scheduling: one task queued or running at a time -----------------------------------------


class Broker:
    """What the scheduling published, and the keys of its private "ratings" cache."""

    def __init__(self):
        self.published: list[tuple[int | None, float]] = []

    @property
    def keys(self) -> dict:
        return dict(caches[scheduling.SCHEDULE_CACHE]._cache)


@pytest.fixture
def broker(monkeypatch, settings):
    """Tasks published to a list instead of run: the scheduling as with real workers, its keys
    in a private cache standing in for the shared "ratings" one (``add`` is SET NX on Redis)."""
    settings.CACHES = {
        **settings.CACHES,
        scheduling.SCHEDULE_CACHE: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"ratings-schedule-{uuid.uuid4()}",
        },
    }
    broker = Broker()
    monkeypatch.setattr(queueing, "tasks_eager", lambda: False)
    monkeypatch.setattr(
        tasks.apply_game,
        "apply_async",
        lambda args, countdown=None, **kw: broker.published.append((args[0], countdown or 0)),
    )
    return broker


def _run_task(game_id):
    """What the worker does with a published apply task."""
    batch = services.games_ratings_apply_announced(game_id=game_id)
    services.ratings_apply_continue(batch, game_id=game_id)
    return batch


def test_a_burst_of_announcements_publishes_one_task(players, broker):
    games = _duels(players, 5, random.Random(1))
    for game in games:
        assert services.enqueue_game_ratings(game.pk) is True
    assert broker.published == [(games[0].pk, 0)]
    assert _run_task(games[0].pk).games_moved == 5
    assert broker.keys == {} and broker.published == [(games[0].pk, 0)]  # idle again
    # The next game, on an idle site, is published at once.
    later = make_game(players[:2], [19, 10])
    services.enqueue_game_ratings(later.pk)
    assert broker.published[-1] == (later.pk, 0)


def test_games_announced_during_a_batch_gather_for_the_next(players, broker, settings):
    settings.RATINGS_APPLY_BATCH_SECONDS = 0.75
    first, second, third = _duels(players, 3, random.Random(4))
    services.enqueue_game_ratings(first.pk)
    batch = services.games_ratings_apply_announced(game_id=first.pk)
    services.enqueue_game_ratings(second.pk)  # while the batch runs: the key is taken
    services.enqueue_game_ratings(third.pk)
    assert broker.published == [(first.pk, 0)]
    services.ratings_apply_continue(batch, game_id=first.pk)
    assert broker.published == [(first.pk, 0), (None, 0.75)]
    assert broker.keys  # still scheduled: announcements publish nothing meanwhile
    assert _run_task(None).games_moved == 2
    assert broker.keys == {}


def test_a_backlog_publishes_the_next_batch_at_once(players, broker, settings):
    settings.RATINGS_APPLY_BATCH_GAMES = 2
    games = _duels(players, 5, random.Random(6))
    for game in games:
        services.enqueue_game_ratings(game.pk)
    _run_task(games[0].pk)
    assert broker.published[-1] == (None, 0)
    _run_task(None)
    _run_task(None)
    assert broker.keys == {} and not PendingRating.objects.exists()
    assert len(broker.published) == 3


def test_broker_down_gives_the_schedule_back_and_keeps_the_game_pending(
    players, broker, monkeypatch
):
    a, b = players[:2]
    game = make_game([a, b], [19, 10])

    def down(args, **kw):
        raise ConnectionError("redis is down")

    with monkeypatch.context() as m:
        m.setattr(tasks.apply_game, "apply_async", down)
        assert services.enqueue_game_ratings(game.pk) is False
    assert broker.keys == {}  # the next announcement may publish again
    assert PendingRating.objects.filter(game=game).exists()
    later = make_game([b, a], [19, 10])
    assert services.enqueue_game_ratings(later.pk) is True  # the broker is back
    assert broker.published == [(later.pk, 0)]
    _run_task(later.pk)
    lobby = RatingChange.objects.filter(system="lobby", player=a).order_by("id")
    assert [c.game_id for c in lobby] == [game.pk, later.pk]
    assert broker.keys == {} and not PendingRating.objects.exists()
