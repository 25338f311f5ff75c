"""Counting games for matches when the counting was lost or refused (the beat sweep)."""

import pytest

from games.models import Game
from players.models import AuditEntry
from tests.factories import PlayerFactory
from tests.tournaments.helpers import submit_match_game
from tournaments import receivers, services, tasks
from tournaments.models import Match, MatchGame, MatchStatus, UncountedGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(organiser):
    championship = services.championship_create(
        actor=organiser, name="Sweep Open", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="KO", format="knockout"
    )
    for _ in range(2):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    return Match.objects.get(event=event)


def _submit_with_counting_lost(actor, match, monkeypatch, capture) -> Game:
    """Adjudicate a game for the match while the receiver's counting fails to happen."""
    with monkeypatch.context() as patched:
        patched.setattr(receivers.services, "match_game_attach", lambda **kwargs: None)
        with capture(execute=True):
            submission = submit_match_game(actor, match)
    return Game.objects.get(record=submission.record)


def test_the_sweep_counts_a_game_whose_counting_was_lost(
    organiser, match, monkeypatch, django_capture_on_commit_callbacks
):
    game = _submit_with_counting_lost(
        organiser, match, monkeypatch, django_capture_on_commit_callbacks
    )
    assert not MatchGame.objects.filter(game=game).exists()

    assert tasks.sweep_uncounted_games() == 1
    match.refresh_from_db()
    assert MatchGame.objects.get(game=game).match == match
    assert match.games_played == 1
    assert tasks.sweep_uncounted_games() == 0  # counted once only


def test_a_refused_game_is_kept_as_state_and_never_retried(
    organiser, match, monkeypatch, django_capture_on_commit_callbacks
):
    game = _submit_with_counting_lost(
        organiser, match, monkeypatch, django_capture_on_commit_callbacks
    )
    # The match closes before the game is counted: the game cannot count any more.
    services.match_rule(
        actor=organiser, match=match, winner_entry_id=match.entry_a_id, reason="no-show"
    )
    assert services.match_game_attach(game_id=game.pk) is None
    uncounted = UncountedGame.objects.get(game=game)
    assert uncounted.match_id == match.pk
    assert uncounted.reason == "the match was already ruled by an organiser"
    assert AuditEntry.objects.filter(action="game_not_counted").count() == 1

    assert tasks.sweep_uncounted_games() == 0
    assert not MatchGame.objects.filter(game=game).exists()
    # A second try (a redelivered task) refuses again without a second row.
    assert services.match_game_attach(game_id=game.pk) is None
    assert UncountedGame.objects.filter(game=game).count() == 1
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RULED
