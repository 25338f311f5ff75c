"""The living demo: a small one built by the same code as `make run`'s, checked for what a
visitor sees (events in every state, results from real adjudicated records, ratings)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.engine import selfplay
from games.models import Game, GameRecord
from players.models import Player
from ratings.models import ChangeReason, Rating, RatingChange, RatingSystem, Title
from tournaments import demo
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
DEMO_DB = pytest.mark.django_db(transaction=True)

DECIDED = {MatchStatus.DECIDED, MatchStatus.WALKOVER}


CATEGORIES = {
    "World Championship": "world",
    "World Junior Championship": "junior",
    "Online Open": "open",
    "Demo Team Cup": "open",
    "Wellington Table Open": "open",
}


def _all_names() -> list[tuple[str, str]]:
    """(full name, country) of every player the demo can create."""
    accounts = [
        (f"{demo.FIRST_NAMES.get(first, first)} {demo.SURNAMES[first]}", country)
        for first, country in demo.NAMES
    ]
    return accounts + demo.account_less_people()


def _is_woman(full_name: str) -> bool:
    first = full_name.split()[0]
    return first in demo.WOMEN


def test_family_names_agree_with_first_names_in_russian_czech_and_polish():
    """ "Anna Smirnova", "Tereza Svobodová", "Zofia Kowalska"; "Dmitri Petrov", "Petr Dvořák"."""
    assert {"Anna", "Olga", "Tereza", "Lenka", "Jana", "Kasia"} <= demo.WOMEN
    assert not {"Dmitri", "Ivan", "Petr", "Ondřej", "Piotr"} & demo.WOMEN
    names = _all_names()
    checked = {"RU": 0, "CZ": 0}
    for full_name, country in names:
        surname = full_name.split(" ", 1)[1]
        woman = _is_woman(full_name)
        if country == "RU":
            checked["RU"] += 1
            assert surname.endswith("a") == woman, full_name
        elif country == "CZ":
            checked["CZ"] += 1
            assert surname.endswith("á") == woman, full_name
        elif country == "PL" and surname.endswith(("ski", "ska")):
            assert surname.endswith("ska") == woman, full_name
    assert checked["RU"] >= 20 and checked["CZ"] >= 20
    for wanted in ("Anna Smirnova", "Tereza Svobodová", "Lenka Dvořáková", "Dmitri Petrov"):
        assert (wanted, "RU" if wanted[0] in "AD" else "CZ") in names
    assert len({name for name, _country in names}) == len(names)  # a record names one player


def test_decisive_seeds_are_won_by_the_greedy_seat_by_many_tiles():
    for seed in demo.DECISIVE_SEEDS:
        first, second = selfplay(seed, "2", greedy=(0,))["claimed_scores"]
        assert first - second >= 18, seed


@DEMO_DB
def test_small_demo_has_every_event_state_from_real_records():
    summary = load_demo(world_entrants=24, casual_games=10)
    assert summary is not None
    assert summary.players == demo.MIN_ADULTS + 8
    assert set(summary.championships) == {
        "World Championship",
        "World Junior Championship",
        "Online Open",
        "Demo Team Cup",
        "Wellington Table Open",
    }
    assert Championship.objects.filter(published=True).count() == 5
    # Each championship in its category: the junior one under junior, not world.
    assert dict(Championship.objects.values_list("name", "category")) == CATEGORIES
    # Every player's name comes from the tables checked above (family names agreeing).
    known = {name for name, _country in _all_names()} | {"Organiser"}
    assert set(Player.objects.values_list("display_name", flat=True)) <= known

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
    # Twenty-four adults at twelve tables (the demo has at least sixty adults however small).
    assert TableResult.objects.filter(match__event=table_open).count() == 36
    assert Round.objects.filter(event=table_open).count() == 4  # the fourth paired, not played

    # Every game is a stored record judged valid by the engine; the players are rated.
    assert Game.objects.count() == summary.games
    assert not GameRecord.objects.exclude(status="valid").exists()
    assert Rating.objects.filter(games__gt=0).values("player").distinct().count() >= 10

    # Three Masters, awarded by the admin through the title's own check, on a lobby ranking of
    # 950 or more that their games made: no adjustment wrote any of it.
    titles = Title.objects.filter(status=Title.Status.ACTIVE, kind=Title.Kind.MASTER)
    assert titles.count() >= 3
    for title in titles:
        changes = RatingChange.objects.filter(player=title.player, system=RatingSystem.LOBBY)
        assert changes.count() > 100
        assert set(changes.values_list("reason", flat=True)) == {ChangeReason.GAME}
        assert title.player.user is not None  # a Master one can sign in as
    lobby = sorted(
        Rating.objects.filter(system=RatingSystem.LOBBY, games__gt=0).values_list(
            "value", flat=True
        )
    )
    # A spread: the Masters above 900, the middle of the field around the start, 500.
    assert sum(value >= 900 for value in lobby) >= 3
    assert 350 < lobby[len(lobby) // 2] < 600


@DEMO_DB
def test_load_demo_command_prints_logins_and_runs_once():
    out = StringIO()
    call_command("load_demo", "--world-entrants", "12", "--casual-games", "4", stdout=out)
    assert "Sign in with any of these (password: tantrix-demo):" in out.getvalue()
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "already loaded" in again.getvalue()
    # The sign-ins come at the end of every start, loaded or not.
    for output in (out.getvalue(), again.getvalue()):
        tail = output.split("Sign in with")[-1]
        assert "tantrix-demo" in tail
        assert {"admin", "organiser", "csilla"} <= {
            line.split()[0] for line in tail.splitlines()[1:]
        }
