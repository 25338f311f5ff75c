"""Master titles: lapses found by the beat task and flagged for an admin."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings import services, tasks
from ratings.models import Review, Title
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def masters(admin_user):
    a, b = PlayerFactory(), PlayerFactory()
    awarded = timezone.now() - dt.timedelta(days=200)
    titles = [
        Title.objects.create(player=p, awarded_at=awarded, awarded_by=admin_user) for p in (a, b)
    ]
    return a, b, titles


def _master_games(a, b, days_ago: int, count: int = 5):
    for i in range(count):
        played = timezone.now() - dt.timedelta(days=days_ago, minutes=i)
        services.game_ratings_apply(game_id=make_game([a, b], [20, 10 + i], played_at=played).pk)


def test_a_title_without_enough_master_games_is_flagged_once(masters, admin_user):
    a, b, (title_a, title_b) = masters
    _master_games(a, b, days_ago=120)  # alive for 3 months: expired a month ago
    assert tasks.check_title_lapses.delay().get() == 2
    review = Review.objects.get(title=title_a)
    assert review.kind == "title_lapse" and review.is_open and review.player == a
    lapsed_on = dt.date.fromisoformat(review.detail["lapsed_on"])
    assert lapsed_on < timezone.localdate()
    assert services.titles_check_lapses() == []  # one open flag per title

    services.title_withdraw(actor=admin_user, title_id=title_a.pk, note="lapsed", lapsed=True)
    review.refresh_from_db()
    assert review.status == "approved"
    title_a.refresh_from_db()
    assert title_a.status == "lapsed" and title_a.ended_by == admin_user


def test_a_title_kept_by_recent_master_games_is_not_flagged(masters):
    a, b, _ = masters
    _master_games(a, b, days_ago=10)
    _master_games(a, b, days_ago=70)
    _master_games(a, b, days_ago=130)
    assert services.titles_check_lapses() == []


def test_reverted_master_games_do_not_keep_a_title(masters, admin_user):
    a, b, _ = masters
    for days_ago in (130, 70, 10):
        _master_games(a, b, days_ago=days_ago)
    assert services.titles_check_lapses() == []
    seventy_days_ago = timezone.now() - dt.timedelta(days=70)
    game = (
        a.game_seats.filter(game__played_at__lte=seventy_days_ago)
        .order_by("-game__played_at")
        .first()
        .game
    )
    services.game_ratings_revert(actor=admin_user, game_id=game.pk, note="void")
    flagged = services.titles_check_lapses()
    assert {r.player for r in flagged} == {a, b}


def test_new_masters_have_three_months_of_grace(admin_user):
    newcomer = PlayerFactory()
    Title.objects.create(
        player=newcomer, awarded_at=timezone.now() - dt.timedelta(days=40), awarded_by=admin_user
    )
    assert services.titles_check_lapses() == []
