"""An event with nothing to rate (decided by rulings and walkovers, or not started) is told of
every result: after the first calculation has said so, a recalculation changes nothing and
writes nothing, and the first ratable game is still rated."""

from __future__ import annotations

import pytest

from players.models import AuditEntry
from ratings import services
from ratings.models import AuditAction, EloEvent, EloStanding
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game, value

pytestmark = pytest.mark.django_db

EVENT = 77


def _recalculations() -> int:
    return AuditEntry.objects.filter(action=AuditAction.ELO_RECALCULATE).count()


def test_a_gameless_event_is_recorded_once_then_left_alone():
    first = services.elo_event_recalculate(event_id=EVENT)
    assert (first.games, first.players, first.changes) == (0, 0, 0)
    record = EloEvent.objects.get(event_id=EVENT)
    assert record.games == 0 and record.fingerprint == "0:None:None"
    assert _recalculations() == 1

    for _ in range(3):
        again = services.elo_event_recalculate(event_id=EVENT)
        assert (again.games, again.players, again.changes) == (0, 0, 0)
    assert _recalculations() == 1
    assert EloEvent.objects.get(event_id=EVENT).calculated_at == record.calculated_at


def test_the_first_game_after_nothing_is_rated():
    services.elo_event_recalculate(event_id=EVENT)
    a, b = PlayerFactory(), PlayerFactory()
    services.game_ratings_apply(
        game_id=make_game([a, b], [20, 10], event_id=EVENT, tps=[13.3, 6.7]).pk
    )

    result = services.elo_event_recalculate(event_id=EVENT)
    assert (result.games, result.players) == (1, 2)
    assert EloEvent.objects.get(event_id=EVENT).games == 1
    assert EloStanding.objects.filter(event_id=EVENT).count() == 2
    assert value(a, "elo") > value(b, "elo")
    assert _recalculations() == 2
