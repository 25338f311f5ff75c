"""Regression: a rating write behind a long recompute gives up in time, not waiting forever."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction

from ratings import services
from ratings.models import RatingChange
from ratings.services.locks import lock_tables
from ratings.tasks import apply_game
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.helpers import make_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby_lock_held():
    """Another connection holds the lobby table's lock, as a recompute in progress does."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                lock_tables("lobby", wait_seconds=5)
                held.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(timeout=10)
    yield
    release.set()
    holder.join(timeout=10)


def test_apply_gives_up_after_the_lock_wait_and_keeps_the_game_pending(lobby_lock_held, settings):
    settings.RATINGS_LOCK_WAIT_SECONDS = 0.3
    game = make_game([PlayerFactory(), PlayerFactory()], [20, 10])
    began = time.monotonic()
    with pytest.raises(OperationalError) as waited:
        services.game_ratings_apply(game_id=game.pk)
    assert time.monotonic() - began < 5
    assert isinstance(waited.value, services.RatingsBusy)
    assert not RatingChange.objects.filter(game=game).exists()
    # The lock timeout was the transaction's own: this connection is back to no timeout.
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "0"


def test_the_apply_task_retries_when_the_tables_are_busy(lobby_lock_held, settings):
    settings.RATINGS_LOCK_WAIT_SECONDS = 0.3
    game = make_game([PlayerFactory(), PlayerFactory()], [20, 10])
    from celery.exceptions import Retry

    with pytest.raises(Retry):
        apply_game.apply(args=[game.pk], throw=True).get()


def test_a_staff_adjustment_while_busy_answers_503_with_retry_after(lobby_lock_held, settings):
    settings.RATINGS_LOCK_WAIT_SECONDS = 0.3
    from tests.conftest import client_for

    player = PlayerFactory()
    response = client_for(UserFactory(is_staff=True)).post(
        "/api/ratings/adjustments/",
        {"player": player.pk, "system": "lobby", "delta": 5, "reason": "correction"},
        format="json",
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert "try again" in response.json()["detail"]
