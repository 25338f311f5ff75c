"""Tournaments tells ratings when an event's results change; ratings pages name the event."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services as game_services
from ratings import selectors as rating_selectors
from ratings.models import EloEvent, EloStanding, RatingChange
from tests.factories import PlayerFactory
from tests.tournaments.helpers import match_record_body, submit_match_game
from tournaments import rating_seam, services
from tournaments.models import Event, EventStatus, Match, MatchGame

pytestmark = pytest.mark.django_db


def _match(organiser, **config) -> Match:
    championship = services.championship_create(
        actor=organiser, name="Elo Open", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Singles", format="knockout", **config
    )
    for _ in range(2):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return Match.objects.get(event=event)


@pytest.fixture
def match(organiser):
    return _match(organiser)


@pytest.fixture
def enqueued(monkeypatch):
    """The event ids tournaments tells ratings about (still enqueueing for real)."""
    calls: list[int] = []
    real = rating_seam.enqueue_event_elo

    def spy(event_id: int) -> bool:
        calls.append(event_id)
        return real(event_id)

    monkeypatch.setattr(rating_seam, "enqueue_event_elo", spy)
    return calls


def test_a_counted_game_recalculates_the_events_elo_without_the_sweep(
    organiser, match, enqueued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = submit_match_game(organiser, match)
    assert MatchGame.objects.filter(game__record=submission.record).exists()
    assert match.event_id in enqueued
    # Recalculated at once (eager Celery): the standings and changes are there, and the
    # hourly sweep finds nothing left to do for the event.
    assert EloEvent.objects.get(event_id=match.event_id).games == 1
    assert EloStanding.objects.filter(event_id=match.event_id).count() == 2
    assert RatingChange.objects.filter(event_id=match.event_id, reason="tournament").count() == 2
    assert rating_selectors.elo_events_changed() == []


def test_finishing_the_event_by_its_games_tells_ratings(
    organiser, match, enqueued, django_capture_on_commit_callbacks
):
    while not Match.objects.get(pk=match.pk).is_final:
        with django_capture_on_commit_callbacks(execute=True):
            submit_match_game(organiser, match)
    assert Event.objects.get(pk=match.event_id).status == EventStatus.FINISHED
    assert set(enqueued) == {match.event_id}
    games = MatchGame.objects.filter(match=match).count()
    assert EloEvent.objects.get(event_id=match.event_id).games == games
    assert rating_selectors.elo_events_changed() == []


def test_a_ruling_tells_ratings(organiser, match, enqueued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.match_rule(
            actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="no-show"
        )
    assert Event.objects.get(pk=match.event_id).status == EventStatus.FINISHED
    assert enqueued and set(enqueued) == {match.event_id}


def test_a_time_penalty_moves_the_elo_without_the_sweep(
    organiser, enqueued, django_capture_on_commit_callbacks
):
    match = _match(organiser, games_per_match=2)
    record = json.loads(match_record_body(match, seed=77))
    record["clock"] = [17 * 60 + 5, 600]  # seat 0: 2:05 over, 3 TPs
    with django_capture_on_commit_callbacks(execute=True):
        game_services.record_submit(
            actor=organiser, body=json.dumps(record).encode(), extensions={"match": match.pk}
        )
    match_game = match.match_games.get()
    over = match_game.game.seats.get(seat=0).player_id
    share_before = EloStanding.objects.get(event_id=match.event_id, player_id=over).share
    enqueued.clear()
    side = 0 if match_game.seat_a == 0 else 1
    with django_capture_on_commit_callbacks(execute=True):
        services.match_penalty_claim(actor=organiser, match_game=match_game, side=side)
    assert enqueued == [match.event_id]
    share_after = EloStanding.objects.get(event_id=match.event_id, player_id=over).share
    assert share_after < share_before
    assert rating_selectors.elo_events_changed() == []


def test_nothing_is_told_before_the_transaction_commits(organiser, match, enqueued):
    # pytest-django's transaction is never committed here: the callback must wait for commit.
    services.match_rule(
        actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="no-show"
    )
    assert enqueued == []


def test_the_rating_history_names_the_event(
    client, organiser, match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submit_match_game(organiser, match)
    player = match.entry_a.player
    html = client.get(
        reverse("rating-history", args=[player.pk]), {"system": "elo"}
    ).content.decode()
    assert "Elo Open 2026 · Singles" in html
    assert f"event {match.event_id}" not in html
    body = client.get(reverse("api-rating-history", args=[player.pk]), {"system": "elo"}).json()
    tournament = [c for c in body["results"] if c["event_id"] == match.event_id]
    assert tournament and all(c["event_name"] == "Elo Open 2026 · Singles" for c in tournament)
    games = [c for c in body["results"] if c["event_id"] is None]
    assert all(c["event_name"] is None for c in games)


def test_an_event_nobody_names_reads_as_words_not_an_id():
    class Row:
        event_id = 999_999

    (row,) = rating_selectors.with_event_names([Row()])
    assert row.event_name == "an event no longer listed"
