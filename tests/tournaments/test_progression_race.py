"""The last two matches of a round ended at once, as two workers counting their games would:
the stage still finishes, and the next Swiss round is still paired.

Each test lets both transactions close their match and wait for each other before deciding what
follows, so without the progression lock both decide on a snapshot that shows the other's match
still open (the race that once left a 150-entrant qualifier "drawn" with every match played)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Event, EventStatus, Match, MatchStatus
from tournaments.services import progression, swiss_rounds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def championship(organiser):
    return services.championship_create(
        actor=organiser, name="Race Cup", year=2026, category="world", published=True
    )


def _drawn(organiser, championship, **config) -> Event:
    event = services.event_create(
        actor=organiser, championship=championship, name="Stage", **config
    )
    for i in range(4):
        player = PlayerFactory(country=["DE", "NZ", "US", "HU"][i])
        services.entry_register(actor=organiser, event=event, player=player)
    services.event_seed(actor=organiser, event=event)
    services.draw_generate(actor=organiser, event=event, draw_seed=7)
    return event


def _rule(organiser, match: Match) -> None:
    services.match_rule(
        actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="race"
    )


def _rule_at_once(organiser, matches: list[Match], monkeypatch, module) -> list[Exception]:
    """Rule each match in its own thread and connection; both close their match, then meet."""
    meet = threading.Barrier(len(matches), timeout=30)
    close = module.match_close

    def close_then_meet(*args, **kwargs):
        close(*args, **kwargs)
        meet.wait()

    monkeypatch.setattr(module, "match_close", close_then_meet)
    errors: list[Exception] = []

    def run(match: Match) -> None:
        try:
            _rule(organiser, match)
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(m,)) for m in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def _open(event: Event) -> list[Match]:
    return list(
        Match.objects.filter(
            event=event, status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
        ).order_by("pk")
    )


def test_a_group_stage_whose_last_two_matches_end_at_once_finishes(
    organiser, championship, monkeypatch
):
    event = _drawn(organiser, championship, format="groups", groups_count=1)
    *first, a, b = _open(event)
    for match in first:
        _rule(organiser, match)
    assert _rule_at_once(organiser, [a, b], monkeypatch, progression) == []
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED


def test_without_the_lock_the_group_stage_is_left_unfinished(organiser, championship, monkeypatch):
    """The race itself, shown: the test above fails for this reason without the lock."""
    event = _drawn(organiser, championship, format="groups", groups_count=1)
    *first, a, b = _open(event)
    for match in first:
        _rule(organiser, match)
    monkeypatch.setattr(progression, "event_progression_lock", lambda event_id: None)
    assert _rule_at_once(organiser, [a, b], monkeypatch, progression) == []
    event.refresh_from_db()
    assert event.status == EventStatus.DRAWN
    assert not _open(event)


def test_a_swiss_round_whose_two_matches_end_at_once_pairs_the_next(
    organiser, championship, monkeypatch
):
    event = _drawn(organiser, championship, format="swiss", swiss_rounds=3)
    a, b = _open(event)
    assert _rule_at_once(organiser, [a, b], monkeypatch, progression) == []
    assert event.rounds.filter(number=2).exists()
    assert len(_open(event)) == 2


def test_without_the_lock_the_next_swiss_round_is_never_paired(
    organiser, championship, monkeypatch
):
    event = _drawn(organiser, championship, format="swiss", swiss_rounds=3)
    a, b = _open(event)
    monkeypatch.setattr(swiss_rounds, "event_progression_lock", lambda event_id: None)
    assert _rule_at_once(organiser, [a, b], monkeypatch, progression) == []
    assert not event.rounds.filter(number=2).exists()
    assert not _open(event)
