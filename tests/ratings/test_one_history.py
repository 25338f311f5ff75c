"""One history: whatever order games arrive in, however often, with reverts and adjustments in
between, the live ratings and every stored step equal a replay of the history in game order,
so a recompute changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from ratings import services
from ratings.models import Rating, RatingChange
from ratings.params import lobby_params
from ratings.systems import recompute_lobby
from tests.factories import PlayerFactory
from tests.ratings.helpers import assert_chains_consistent, make_game

pytestmark = pytest.mark.django_db(transaction=False)

PER_GAME = ["lobby", "monthly", "doubles", "master"]

# Where games are played, relative to now: last month (its own monthly table), last week, the
# last hour, and a little ahead (the envelope allows a game up to a day ahead of the clock), so
# that adjustments made "now" fall between games of the history.
PLACES = [dt.timedelta(days=-40), dt.timedelta(days=-7), dt.timedelta(hours=-1), dt.timedelta(0)]

game_spec = st.tuples(
    st.sampled_from(range(len(PLACES))),
    st.integers(min_value=0, max_value=50),  # minutes after the place (equal times happen)
    st.integers(min_value=0, max_value=5),  # first player
    st.integers(min_value=1, max_value=5),  # second player = (first + this) % 6
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=40),
    st.booleans(),  # a pairs game (four players) instead
)
operation = st.one_of(
    st.tuples(st.just("apply"), st.integers(0, 10_000)),
    st.tuples(st.just("again"), st.integers(0, 10_000)),  # a duplicate delivery
    st.tuples(st.just("revert"), st.integers(0, 10_000)),
    st.tuples(st.just("adjust"), st.integers(0, 5), st.integers(-30, 30)),
    st.tuples(st.just("unadjust"), st.integers(0, 10_000)),
)


class _Rollback(Exception):
    pass


def _reference_lobby() -> dict[int, float]:
    """The lobby by an independent path: the fast pure replay of the games that count, in game
    order, with each adjustment's delta applied at its time."""
    reverted_games = set(
        RatingChange.objects.filter(reason="revert", reverts__reason="game").values_list(
            "reverts__game_id", flat=True
        )
    )
    reverted_adjustments = set(
        RatingChange.objects.filter(reason="revert", reverts__reason="adjustment").values_list(
            "reverts_id", flat=True
        )
    )
    events = []
    rated = set(
        RatingChange.objects.filter(system="lobby", reason="game").values_list("game_id", flat=True)
    )
    for game in Game.objects.filter(pk__in=rated - reverted_games):
        s0, s1 = game.seats.order_by("seat")
        if game.winner_seat is None:
            duel = (s0.player_id, s1.player_id, s0.score, s1.score, False)
        elif game.winner_seat == 0:
            duel = (s0.player_id, s1.player_id, max(1, s0.score - s1.score), False)
        else:
            duel = (s1.player_id, s0.player_id, max(1, s1.score - s0.score), False)
        events.append(((game.played_at, 0, game.pk), duel))
    for change in RatingChange.objects.filter(system="lobby", reason="adjustment"):
        if change.pk not in reverted_adjustments:
            events.append(((change.at, 1, change.pk), (change.player_id, change.delta)))
    ratings: dict[int, float] = {}
    for _, event in sorted(events, key=lambda e: e[0]):
        if len(event) == 2:
            pid, delta = event
            ratings[pid] = min(1000.0, max(0.0, ratings.get(pid, 500.0) + delta))
        else:
            ratings = recompute_lobby([event], initial=ratings, params=lobby_params()).ratings
    return ratings


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    games=st.lists(game_spec, min_size=2, max_size=12),
    operations=st.lists(operation, min_size=4, max_size=30),
)
def test_live_ratings_equal_a_recompute_whatever_the_arrival_order(games, operations, admin_user):
    try:
        with transaction.atomic():
            _example(games, operations, admin_user)
            raise _Rollback  # each example starts from an empty database
    except _Rollback:
        pass


def _example(games, operations, admin_user) -> None:
    players = [PlayerFactory() for _ in range(6)]
    now = timezone.now()
    made = []
    for place, minutes, first, step, score_a, score_b, pairs in games:
        played = now + PLACES[place] + dt.timedelta(minutes=minutes)
        if pairs:
            four = [players[(first + i) % 6] for i in range(4)]
            made.append(
                make_game(four, [score_a, score_b, score_a, score_b], pairs=True, played_at=played)
            )
        else:
            two = [players[first], players[(first + step) % 6]]
            made.append(make_game(two, [score_a, score_b], played_at=played))
    applied: list = []
    for op in operations:
        kind = op[0]
        if kind in ("apply", "again"):
            pool = made if kind == "apply" else applied or made
            game = pool[op[1] % len(pool)]
            services.game_ratings_apply(game_id=game.pk)
            applied.append(game)
        elif kind == "revert" and applied:
            game = applied[op[1] % len(applied)]
            if RatingChange.objects.filter(
                game=game, reason="game", reverted_by__isnull=True
            ).exists():
                services.game_ratings_revert(actor=admin_user, game_id=game.pk, note="void")
        elif kind == "adjust":
            player = players[op[1]]
            current = Rating.objects.filter(player=player, system="lobby").first()
            base = current.value if current else 500.0
            if 0.0 <= base + op[2] <= 1000.0:
                services.rating_adjust(
                    actor=admin_user, player_id=player.pk, system="lobby", delta=op[2], reason="t"
                )
        elif kind == "unadjust":
            open_adjustments = list(
                RatingChange.objects.filter(reason="adjustment", reverted_by__isnull=True)
            )
            if open_adjustments:
                change = open_adjustments[op[1] % len(open_adjustments)]
                services.change_revert(actor=admin_user, change_id=change.pk, note="undo")
    # Whatever was never delivered arrives last.
    for game in made:
        services.game_ratings_apply(game_id=game.pk)
    assert_chains_consistent()

    ratings = {(r.player_id, r.system): (r.value, r.games, r.period) for r in Rating.objects.all()}
    changes = list(RatingChange.objects.order_by("id").values_list("id", "before", "after"))
    reference = _reference_lobby()
    for (pid, system), (value, _, _) in ratings.items():
        if system == "lobby":
            assert value == reference.get(pid, 500.0)

    result = services.ratings_recompute(systems=PER_GAME)
    assert {s: (r.steps, r.corrected) for s, r in result.systems.items()} == {
        s: (0, 0) for s in PER_GAME
    }
    assert {
        (r.player_id, r.system): (r.value, r.games, r.period) for r in Rating.objects.all()
    } == ratings
    assert list(RatingChange.objects.order_by("id").values_list("id", "before", "after")) == (
        changes
    )
