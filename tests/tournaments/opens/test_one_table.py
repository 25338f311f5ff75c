"""A table open's page has one standings table, its TPs with one decimal place, and its Games
column counts games, not matches (issue 28: the page showed a TP% table and the tie-break
standings, which placed the eighth differently, with "35", "48.6" and "13.35" side by side)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_organiser
from tests.tournaments.opens.helpers import open_championship, play_round, table_open
from tournaments.format_words import tps_text
from tournaments.models import Match
from tournaments.standings import event_standings, format_value


def test_tps_read_with_one_decimal_place():
    assert tps_text(Decimal("35")) == "35.0"
    assert tps_text(Decimal("48.6")) == "48.6"
    assert tps_text(Decimal("13.35")) == "13.4"  # half up, as on a score sheet
    assert tps_text(Decimal("13.34")) == "13.3"
    assert tps_text(None) == ""
    assert tps_text(Decimal("65.45"), localized=False) == "65.5"
    # Every criterion counted in TPs alike; counts as they are.
    for key in ("tp_total", "buchholz", "median_buchholz", "sonneborn_berger", "tp_percent"):
        assert format_value(key, Decimal("47"), localized=False) == "47.0"
    assert format_value("wins", Decimal("2"), localized=False) == "2"
    assert format_value("match_points", Decimal("1.5"), localized=False) == "1.5"


@pytest.fixture
def open_after_two_rounds(db):
    organiser = make_organiser()
    championship, controller = open_championship(organiser)
    event = table_open(organiser, championship, 6, system="round_robin")
    for round_ in event.rounds.order_by("number")[:2]:
        play_round(controller, round_)
    event.refresh_from_db()
    return event


def test_the_page_shows_one_standings_table_with_one_decimal(open_after_two_rounds):
    event = open_after_two_rounds
    page = Client().get(reverse("event-page", args=[event.pk])).content.decode()
    assert page.count('<table class="table standings">') == 1
    assert 'class="table group-table"' not in page  # the TP% table that disagreed
    table = page[page.index('<table class="table standings">') :]
    table = table[: table.index("</table>")]
    numbers = re.findall(r'<td class="num">([\d.]+)</td>', table)
    tps = [n for n in numbers if "." in n]
    assert tps and all(re.fullmatch(r"\d+\.\d", n) for n in tps), tps
    # The matches are still listed, each score with one decimal place.
    scores = re.findall(r'<span class="score">([^<]*)</span>', page)
    assert scores and all(re.fullmatch(r"\d+\.\d–\d+\.\d", s) for s in scores), scores


def test_the_games_column_counts_games(open_after_two_rounds):
    event = open_after_two_rounds
    assert {line.games for line in event_standings(event)} == {2}  # one game a table, 2 rounds
    # A match of three games (an online Swiss's) counts three for each of its sides.
    match = Match.objects.filter(event=event, is_bye=False, games_played=1).first()
    Match.objects.filter(pk=match.pk).update(games_played=3)
    games = {line.entry.pk: line.games for line in event_standings(event)}
    assert games[match.entry_a_id] == games[match.entry_b_id] == 4


@pytest.mark.django_db
def test_an_online_swiss_ranks_in_its_live_fragment_once(organiser):
    from tests.factories import PlayerFactory
    from tournaments import services

    championship = services.championship_create(
        actor=organiser, name="Online Swiss Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Swiss", format="swiss", swiss_rounds=3
    )
    for _ in range(4):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=5)
    # The live fragment holds the one table (so it follows each result); the page has no other.
    live = Client().get(f"/championships/events/{event.pk}/live/").content.decode()
    assert live.count('<table class="table standings">') == 1
    page = Client().get(reverse("event-page", args=[event.pk])).content.decode()
    assert page.count('<table class="table standings">') == 1
