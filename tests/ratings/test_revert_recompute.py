"""Reverts restore, the history is append-only, and a recompute equals the incremental result."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from players.models import AuditEntry
from ratings import services
from ratings.models import Rating, RatingChange, Review, Title
from ratings.params import lobby_params
from ratings.systems import lobby_update, recompute_lobby
from tests.factories import PlayerFactory
from tests.ratings.helpers import (
    assert_chains_consistent,
    make_game,
    rating,
    snapshot,
    value,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair():
    return PlayerFactory(), PlayerFactory()


def test_revert_restores_the_previous_values_in_every_table(pair, admin_user):
    a, b = pair
    first = make_game([a, b], [19, 10])
    services.game_ratings_apply(game_id=first.pk)
    before = snapshot()
    second = make_game([b, a], [30, 4])
    services.game_ratings_apply(game_id=second.pk)
    assert snapshot() != before

    made = services.game_ratings_revert(actor=admin_user, game_id=second.pk, note="played twice")
    assert len(made) == 4  # lobby and monthly, two players each
    assert snapshot() == before  # exactly, not approximately
    assert all(c.reason == "revert" and c.actor == admin_user for c in made)
    original = RatingChange.objects.filter(game=second, reason="game")
    assert all(c.is_reverted for c in original)
    entry = AuditEntry.objects.get(action="game_revert")
    assert entry.actor == admin_user and entry.reason == "played twice"
    assert_chains_consistent()

    # A reverted game stays out: applying it again (a redelivered task) does nothing.
    assert services.game_ratings_apply(game_id=second.pk) == []
    with pytest.raises(ValidationError):
        services.game_ratings_revert(actor=admin_user, game_id=second.pk, note="again")


def test_revert_in_the_middle_of_two_histories_equals_the_history_without_the_game(
    pair, admin_user
):
    a, b = pair
    c, d = PlayerFactory(), PlayerFactory()
    games = [
        make_game([a, c], [20, 8]),
        make_game([b, d], [11, 15]),
        make_game([a, b], [19, 10]),  # the game reverted: in the middle of a's and b's histories
        make_game([a, d], [9, 23]),
        make_game([b, c], [30, 2]),
        make_game([c, d], [14, 14]),
        make_game([a, b], [17, 16]),
    ]
    for g in games:
        services.game_ratings_apply(game_id=g.pk)
    made = services.game_ratings_revert(actor=admin_user, game_id=games[2].pk, note="ruled void")
    assert {c.reason for c in made} == {"revert", "replay"}  # the game's own rows, later steps
    # Exactly the history without the game, for everyone it reached through later games.
    without = recompute_lobby(
        [(p.pk, q.pk, s, t, False) for p, q, s, t in _duels(games[:2] + games[3:])],
        params=lobby_params(),
    )
    for player in (a, b, c, d):
        assert value(player) == without.ratings[player.pk]
        assert rating(player).games == without.games[player.pk]
    assert_chains_consistent()
    # Nothing left for a recompute to correct.
    result = services.ratings_recompute(systems=["lobby", "monthly"])
    assert {s: r.steps for s, r in result.systems.items()} == {"lobby": 0, "monthly": 0}
    assert {s: r.corrected for s, r in result.systems.items()} == {"lobby": 0, "monthly": 0}


def _duels(games):
    for g in games:
        s0, s1 = g.seats.order_by("seat")
        yield s0.player, s1.player, s0.score, s1.score


def test_rating_changes_and_audit_entries_cannot_be_edited_or_deleted(pair, admin_user):
    a, b = pair
    services.game_ratings_apply(game_id=make_game([a, b], [19, 10]).pk)
    change = RatingChange.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.filter(pk=change.pk).update(after=999.0)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.filter(pk=change.pk).delete()
    services.rating_adjust(
        actor=admin_user, player_id=a.pk, system="lobby", delta=1.0, reason="test"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.update(reason="nothing happened")


def test_database_refuses_a_second_change_for_the_same_game_and_table(pair):
    a, b = pair
    game = make_game([a, b], [19, 10])
    services.game_ratings_apply(game_id=game.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            player=a, system="lobby", reason="game", game=game, before=1, after=2, delta=1
        )


def _history(players, robot, pairs_of_four, admin_user):
    """A mixed history: wins, draws, a robot, pairs games, Masters, two months, an event."""
    rnd = random.Random(7)
    now = timezone.now()
    a, b = players[:2]
    for p in (a, b):
        Title.objects.create(
            player=p, awarded_at=now - dt.timedelta(days=90), awarded_by=admin_user
        )
    last_month = now - dt.timedelta(days=45)
    games = []
    for i in range(80):
        played = (last_month if i < 30 else now - dt.timedelta(hours=30)) + dt.timedelta(minutes=i)
        kind = rnd.random()
        if kind < 0.12:
            four = rnd.sample(pairs_of_four, 4)
            s = [rnd.randrange(5, 30), rnd.randrange(5, 30)]
            games.append(make_game(four, [s[0], s[1], s[0], s[1]], pairs=True, played_at=played))
            continue
        p, q = rnd.sample([*players, robot], 2)
        if kind < 0.2:
            scores = [15, 15]
        else:
            scores = [rnd.randrange(0, 40), rnd.randrange(0, 40)]
            if scores[0] == scores[1]:
                scores[0] += 1
        context = "master" if kind > 0.95 else "casual"
        event = 11 if 0.9 < kind <= 0.95 else None
        tps = [13.3, 6.7] if event and scores[0] > scores[1] else [6.7, 13.3] if event else None
        games.append(
            make_game([p, q], scores, played_at=played, context=context, event_id=event, tps=tps)
        )
    return games


def test_recompute_from_history_equals_the_incremental_result(admin_user, settings):
    settings.RATINGS_SWEEP_WINDOW_HOURS = 24 * 60  # the whole history is within the window
    players = [PlayerFactory() for _ in range(7)]
    robot = PlayerFactory(is_robot=True)
    games = _history(players, robot, players[:6], admin_user)
    # Delivered out of order, as tasks may be: each application drains earlier games first.
    for game in reversed(games):
        services.game_ratings_apply(game_id=game.pk)
    services.elo_event_recalculate(event_id=11)
    incremental = snapshot()
    changes = RatingChange.objects.count()
    systems = {system for _, system in incremental}
    assert systems == {"lobby", "monthly", "doubles", "master", "elo"}
    assert_chains_consistent()

    result = services.ratings_recompute(progress=False)
    assert {s: r.corrected for s, r in result.systems.items()} == {
        "lobby": 0,
        "monthly": 0,
        "master": 0,
        "doubles": 0,
        "elo": 0,
    }
    assert snapshot() == incremental
    assert RatingChange.objects.count() == changes
    assert result.systems["lobby"].games == sum(1 for g in games if not g.is_pairs)


def test_recompute_corrects_a_new_parameter_set_with_one_change_per_player(pair, parameter_set):
    a, b = pair
    services.game_ratings_apply(game_id=make_game([a, b], [19, 10]).pk)
    new = parameter_set(k=4.0)
    result = services.ratings_recompute(systems=["lobby"])
    assert result.systems["lobby"].corrected == 2
    doubled = lobby_update(500.0, 500.0, 9, params=new.lobby)[0]
    assert value(a) == pytest.approx(doubled) and doubled == 512.0  # K = 4: 500 + 4·√9
    corrections = RatingChange.objects.filter(reason="replay")  # the game's step, a new version
    assert corrections.count() == 2 and {c.params_version for c in corrections} == {new.version}
    assert AuditEntry.objects.filter(action="recompute").exists()


def test_recompute_reading_in_small_chunks_while_it_writes(parameter_set):
    """The recompute streams its new steps by one COPY kept open while it replays, ended before
    each chunk of the games and of the timeline is fetched (a connection in COPY refuses the
    fetch): chunks of two rows end and reopen it many times, and it stores every step."""
    players = [PlayerFactory() for _ in range(4)]
    start = timezone.now() - dt.timedelta(hours=3)
    games = [
        make_game(
            [players[i % 4], players[(i + 1 + (i // 4) % 3) % 4]],
            [20 + i % 7, 12],
            played_at=start + dt.timedelta(minutes=i),
        )
        for i in range(15)
    ]
    for game in games[:10]:
        services.game_ratings_apply(game_id=game.pk)
    parameter_set(k=4.0)  # every rated step differs now
    result = services.ratings_recompute(systems=["lobby", "monthly"], chunk_size=2)
    # Per table: a new version of the 10 rated games' 20 steps, the first 10 of the 5 others.
    assert {s: r.steps for s, r in result.systems.items()} == {"lobby": 30, "monthly": 30}
    assert RatingChange.objects.filter(system="lobby", reason="replay").count() == 20
    assert_chains_consistent()
    again = services.ratings_recompute(systems=["lobby", "monthly"], chunk_size=3)
    assert {s: r.steps for s, r in again.systems.items()} == {"lobby": 0, "monthly": 0}


def test_recompute_ratings_command(pair, capsys):
    a, b = pair
    services.game_ratings_apply(game_id=make_game([a, b], [19, 10]).pk)
    Rating.objects.filter(player=a, system="lobby").update(value=123.0)  # a stray edit
    call_command("recompute_ratings", "--system", "lobby", verbosity=1)
    out = capsys.readouterr()
    assert "Lobby ranking: 1 games, 2 players, 1 corrected" in out.out
    assert "Lobby ranking: games" in out.err  # the tqdm progress bar
    assert value(a) == lobby_update(500.0, 500.0, 9, params=lobby_params())[0]


def test_manual_adjustment_needs_a_reason_and_stays_on_the_scale(pair, admin_user):
    a, _ = pair
    with pytest.raises(ValidationError) as missing:
        services.rating_adjust(actor=admin_user, player_id=a.pk, system="lobby", delta=5, reason="")
    assert "reason" in missing.value.message_dict
    with pytest.raises(ValidationError) as off_scale:
        services.rating_adjust(
            actor=admin_user, player_id=a.pk, system="lobby", value=1200, reason="x"
        )
    assert "value" in off_scale.value.message_dict
    change = services.rating_adjust(
        actor=admin_user, player_id=a.pk, system="lobby", delta=-25, reason="fair play"
    )
    assert (change.before, change.after) == (500.0, 475.0)
    assert value(a) == 475.0
    services.change_revert(actor=admin_user, change_id=change.pk, note="appeal upheld")
    assert value(a) == 500.0
    assert list(AuditEntry.objects.values_list("action", flat=True).order_by("id")) == [
        "adjustment",
        "change_revert",
    ]


def test_review_revert_reverts_the_flagged_game_and_closes_its_reviews(pair, admin_user, settings):
    a, b = pair
    settings.RATINGS_REVIEW_SWING_POINTS = 3.0
    game = make_game([a, b], [19, 10])
    services.game_ratings_apply(game_id=game.pk)
    reviews = list(Review.objects.filter(kind="large_swing"))
    assert len(reviews) == 2
    services.review_revert(actor=admin_user, review_id=reviews[0].pk, note="smurf account")
    assert value(a) == 500.0 and value(b) == 500.0
    assert set(Review.objects.values_list("status", flat=True)) == {"reverted"}
    entry = AuditEntry.objects.get(action="review_revert")
    assert (entry.review_id, entry.reason) == (reviews[0].pk, "smurf account")
    assert entry.details["game"] == game.pk
    assert sorted(entry.details["reviews_closed"]) == sorted(r.pk for r in reviews)
    with pytest.raises(ValidationError):
        services.review_approve(actor=admin_user, review_id=reviews[1].pk, note="too late")
