"""The living demo: a small one built by the same code as `make run`'s, checked for what a
visitor sees (events in every state, results from real adjudicated records, ratings)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, GameRecord
from ratings.models import Rating
from tournaments.demo import load_demo
from tournaments.models import (
    Championship,
    Event,
    EventStatus,
    Match,
    MatchStatus,
    Round,
    TableResult,
)

# The submission path adjudicates after commit, as in `make run`.
pytestmark = pytest.mark.django_db(transaction=True)

DECIDED = {MatchStatus.DECIDED, MatchStatus.WALKOVER}


def test_small_demo_has_every_event_state_from_real_records():
    summary = load_demo(world_entrants=24, casual_games=10)
    assert summary is not None
    assert summary.players == 24 + 8
    assert set(summary.championships) == {
        "World Championship",
        "World Junior Championship",
        "Online Open",
        "Demo Team Cup",
        "Wellington Table Open",
    }
    assert Championship.objects.filter(published=True).count() == 5

    qualifier = Event.objects.get(name="Qualifying groups")
    main = Event.objects.get(name="Main draw")
    assert qualifier.status == EventStatus.FINISHED
    assert main.entries.count() == 16
    first = Match.objects.filter(event=main, round__number=1)
    assert first.count() == 8 and all(m.status in DECIDED for m in first)
    second = Match.objects.filter(event=main, round__number=2)
    # A bracket in progress: half the second round played, the rest waiting for its games.
    assert {m.status in DECIDED for m in second} == {True, False}
    assert main.champion_id is None

    juniors = Event.objects.get(name="Juniors")
    assert juniors.status == EventStatus.FINISHED and juniors.champion is not None
    assert all(e.player.date_of_birth for e in juniors.entries.all())

    swiss = Event.objects.get(name="Swiss")
    played_rounds = {
        m.round.number for m in Match.objects.filter(event=swiss) if m.status in DECIDED
    }
    assert played_rounds == {1, 2, 3}

    # Doubles in the online open, a team final, and a table open three rounds into five.
    doubles = Event.objects.get(name="Doubles")
    assert doubles.entries.filter(pair__isnull=False).count() == 4
    assert Event.objects.get(name="Final", championship__name="Demo Team Cup").entries.count() == 2
    table_open = Event.objects.get(championship__name="Wellington Table Open")
    assert TableResult.objects.filter(match__event=table_open).count() == 24
    assert Round.objects.filter(event=table_open).count() == 4  # the fourth paired, not played

    # Every game is a stored record judged valid by the engine; the players are rated.
    assert Game.objects.count() == summary.games
    assert not GameRecord.objects.exclude(status="valid").exists()
    assert Rating.objects.filter(games__gt=0).values("player").distinct().count() >= 10


def test_load_demo_command_prints_logins_and_runs_once():
    out = StringIO()
    call_command("load_demo", "--world-entrants", "12", "--casual-games", "4", stdout=out)
    assert "organiser / tantrix-demo" in out.getvalue()
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "already loaded" in again.getvalue()
