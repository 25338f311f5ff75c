"""Why each row is below the one above it: the standings page, the API and the CSV column
"Placed below the previous by" all name the first tie-break on which the two rows differ."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_organiser
from tests.tournaments.opens.helpers import open_championship, table_open
from tournaments.opens.services.score_sheets import table_results_enter
from tournaments.services.exports import standings_csv
from tournaments.standings import round_tables

pytestmark = pytest.mark.django_db

# A round robin of four, seeds 1-4. Seed 2 draws all three games (30 TPs, no win); seed 3 also
# makes 30 TPs but with a win, so "Number of wins" puts seed 3 above seed 2.
#   1-2 draw, 2-3 draw, 2-4 draw, 3 beats 1 by a tile, 4 beats 3 by a tile, 4 beats 1 by 10.
#   TPs: seed 4 39.5, seed 3 30.0, seed 2 30.0, seed 1 20.5.
SCORES = {(1, 2): (20, 20), (2, 3): (20, 20), (2, 4): (20, 20)}
SCORES |= {(1, 3): (20, 21), (3, 4): (20, 21), (1, 4): (20, 30)}


def _sheet(seed_a: int, seed_b: int) -> dict:
    if seed_a < seed_b:
        score_a, score_b = SCORES[(seed_a, seed_b)]
    else:
        score_b, score_a = SCORES[(seed_b, seed_a)]
    return {"score_a": score_a, "score_b": score_b}


@pytest.fixture
def played_open():
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(
        organiser, championship, 4, system="round_robin", tiebreak_list=["tp_total", "wins"]
    )
    for round_ in event.rounds.order_by("number"):
        sheets = {
            t.number: _sheet(t.match.entry_a.seed, t.match.entry_b.seed)
            for t in round_tables(round_)
            if not t.match.is_bye
        }
        table_results_enter(actor=controller, round_=round_, sheets=sheets)
    event.refresh_from_db()
    return event


def test_the_csv_names_the_tp_total_for_a_group_led_by_its_tie_break_winner(played_open):
    rows = list(csv.reader(io.StringIO(standings_csv(played_open))))
    header, lines = rows[0], rows[1:]
    assert header[-1] == "Placed below the previous by"
    seeds = {e.player.display_name: e.seed for e in played_open.entries.all()}
    got = [(seeds[line[1]], line[5], line[6], line[-1]) for line in lines]
    assert got == [
        (4, "39.5", "2", ""),
        (3, "30.0", "1", "TP total"),  # below seed 4 on TPs (it used to say "Seed")
        (2, "30.0", "0", "Number of wins"),
        (1, "20.5", "0", "TP total"),
    ]


def test_the_page_and_the_api_say_the_same(played_open):
    page = Client().get(reverse("event-page", args=[played_open.pk])).content.decode()
    assert "standings" in page and "Level on every tie-break: placed by seed" not in page
    answer = Client().get(f"/api/events/{played_open.pk}/ranked-standings/").json()
    labels = [row["separated_by"] for row in answer["rows"]]
    assert labels == ["", "TP total", "Number of wins", "TP total"]
