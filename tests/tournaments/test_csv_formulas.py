"""CSV downloads never hand a spreadsheet a formula: player, pair and team names that start
with = + - @ (or a tab or line break) are written as text in the standings, results and
pairings CSVs; the numbers beside them stay numbers."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from players.models import Player
from tests.factories import PlayerFactory, make_organiser
from tests.tournaments.opens.helpers import open_championship, play_round, table_open
from tournaments import services
from tournaments.models import Entry, Team
from tournaments.services.exports import pairings_csv, results_csv, standings_csv

pytestmark = pytest.mark.django_db

EVIL = [
    '=HYPERLINK("http://evil.example","x")',
    "+SUM(1,2)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1:A9)",
    "\t=1+1",
]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _cells(text: str) -> set[str]:
    return {cell for row in _rows(text) for cell in row}


def _assert_neutralised(text: str, names: list[str]) -> None:
    cells = _cells(text)
    for name in names:
        assert name not in cells, name
    assert not any(cell.startswith(("=", "+", "@", "\t")) for cell in cells)
    assert not any(cell.startswith("-") and not _number(cell) for cell in cells)


def _number(cell: str) -> bool:
    try:
        Decimal(cell)
    except ArithmeticError:
        return False
    return True


@pytest.fixture
def evil_open():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 7, swiss_rounds=3)
    for number in range(1, 4):
        play_round(controller, event.rounds.get(number=number))
    entries = list(event.entries.order_by("seed"))
    for entry, name in zip(entries, EVIL, strict=False):
        Player.objects.filter(pk=entry.player_id).update(display_name=name)
    event.refresh_from_db()
    return event


def test_the_standings_csv_quotes_formula_names_and_keeps_numbers(evil_open):
    text = standings_csv(evil_open)
    _assert_neutralised(text, EVIL)
    rows = _rows(text)[1:]
    assert {row[1] for row in rows} >= {"'" + name for name in EVIL}
    # Places, games and tie-break values are still numbers.
    for row in rows:
        assert row[0].isdigit() and row[4].isdigit()
        assert all(_number(value) for value in row[5:8])


def test_the_results_and_pairings_csvs_quote_formula_names(evil_open):
    text = results_csv(evil_open)
    _assert_neutralised(text, EVIL)
    named = {row[2] for row in _rows(text)[1:]} | {row[3] for row in _rows(text)[1:]}
    assert {"'" + name for name in EVIL} <= named
    for round_ in evil_open.rounds.all():
        _assert_neutralised(pairings_csv(round_), EVIL)


def test_the_downloads_are_the_neutralised_files(evil_open):
    client = Client()
    for url in (
        reverse("event-standings-csv", args=[evil_open.pk]),
        reverse("event-results-csv", args=[evil_open.pk]),
        reverse("open-round-pairings-csv", args=[evil_open.rounds.get(number=1).pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        _assert_neutralised(response.content.decode(), EVIL)
        assert "'=HYPERLINK" in response.content.decode() or "'+SUM" in response.content.decode()


def test_pair_and_team_names_are_quoted_too(organiser):
    championship = services.championship_create(
        actor=organiser, name="Formula Cup", year=2026, category="open", published=True
    )
    doubles = services.event_create(
        actor=organiser,
        championship=championship,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
    )
    for i in range(2):
        a = PlayerFactory(display_name=EVIL[i] if i == 0 else f"Ana{i}")
        b = PlayerFactory(display_name=f"Bela{i}")
        services.pair_register(actor=organiser, event=doubles, player=a, partner=b)
    services.draw_generate(actor=organiser, event=doubles, draw_seed=1)
    pair_name = Entry.objects.get(event=doubles, pair__player_a__display_name=EVIL[0]).name
    assert pair_name.startswith("=")
    for text in (results_csv(doubles), pairings_csv(doubles.rounds.get(number=1))):
        _assert_neutralised(text, [pair_name])
        assert "'" + pair_name in _cells(text)

    teams = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
        team_tiebreaks=["boards_won", "board_1"],
    )
    for name, country in (("Plain", "DE"), ("Evil", "GB")):
        roster = [PlayerFactory(country=country) for _ in range(5)]
        team = services.team_create(
            actor=organiser,
            championship=championship,
            name=name,
            country=country,
            captain=roster[0],
            deputy=roster[1],
            roster=roster,
        )
        services.team_enter(actor=organiser, event=teams, team=team)
    Team.objects.filter(name="Evil").update(name=EVIL[2])
    services.draw_generate(actor=organiser, event=teams, draw_seed=1)
    for text in (results_csv(teams), pairings_csv(teams.rounds.get(number=1))):
        _assert_neutralised(text, [EVIL[2]])
        assert "'" + EVIL[2] in _cells(text)
