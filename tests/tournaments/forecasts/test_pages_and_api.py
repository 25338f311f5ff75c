"""Forecasts where people read them: the match page, the bracket and its forecast table, the
Swiss standings, the API; hidden with the championship, shown only after a passing evaluation,
updated when a result counts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.conftest import client_for
from tests.tournaments.forecasts.helpers import evaluation, rate
from tests.tournaments.pages import builders
from tournaments import services
from tournaments.models import Championship, Entry, Match, MatchStatus
from tournaments.templatetags.forecast_tags import chance

pytestmark = pytest.mark.django_db


def _rated_knockout(organiser, *, published: bool = True):
    champ = builders.championship(organiser)
    if not published:
        Championship.objects.filter(pk=champ.pk).update(published=False)
    event = builders.knockout(organiser, champ, 8, ruled_rounds=0)
    # Seed 1 is rated 2250, seed 8 1900: the stronger the seed, the likelier to go on.
    for entry in Entry.objects.filter(event=event).select_related("player"):
        rate(entry.player, 2300.0 - 50 * entry.seed)
    return event


def _first_match(event) -> Match:
    return (
        Match.objects.filter(event=event, round__number=1)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("bracket_index")
        .first()
    )


def test_a_visitor_reads_the_chances_on_the_bracket_and_the_match_page(client, organiser):
    event = _rated_knockout(organiser)
    evaluation(better=True)
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    lines = re.findall(r'<span class="bout-forecast"[^>]*>([^<]*)</span>', page)
    assert len(lines) == 4  # the first round's four matches, both sides known
    percent = r"(?:\d+|&lt;1|&gt;99)%"
    assert all(re.fullmatch(f"{percent} · {percent}", line) for line in lines)
    assert 'class="table forecast-table"' in page and "Champion" in page
    assert "Brier score 0.210, against 0.250 for a coin flip" in page

    match = _first_match(event)
    answer = client_for(None).get(f"/api/matches/{match.pk}/forecast/").json()
    assert answer["shown"] is True
    assert answer["chance_a"] + answer["chance_b"] == pytest.approx(1.0)
    # The seed above is rated higher: the favourite.
    favourite = (
        answer["chance_a"] if match.entry_a.seed < match.entry_b.seed else answer["chance_b"]
    )
    assert favourite > 0.5
    text = client.get(reverse("match-page", args=[match.pk])).content.decode()
    a, b = chance(answer["chance_a"]), chance(answer["chance_b"])
    assert escape(f"{match.entry_a.name} {a} · {match.entry_b.name} {b}") in text
    # The bracket's line for that match says the same.
    assert escape(f"{a} · {b}") in lines


def test_the_event_forecast_in_the_api(organiser):
    event = _rated_knockout(organiser)
    evaluation(better=True)
    answer = client_for(None).get(f"/api/events/{event.pk}/forecast/").json()
    assert answer["shown"] and answer["ready"] and answer["method"] == "exact"
    assert [r["name"] for r in answer["rounds"]] == ["Semi-finals", "Final"]
    assert len(answer["entries"]) == 8
    assert sum(e["win"] for e in answer["entries"]) == pytest.approx(1.0)
    for number in (2, 3):
        places = 4 if number == 2 else 2
        total = sum(
            r["chance"] for e in answer["entries"] for r in e["reach"] if r["round"] == number
        )
        assert total == pytest.approx(places)
    top = Entry.objects.get(event=event, seed=1)
    assert answer["entries"][0]["entry"] == top.pk  # the likeliest winner first
    assert len(answer["matches"]) == 4
    assert answer["evaluation"]["better"] is True


def test_a_result_that_counts_changes_the_forecast(organiser):
    event = _rated_knockout(organiser)
    evaluation(better=True)
    api = client_for(None)
    before = api.get(f"/api/events/{event.pk}/forecast/").json()
    match = _first_match(event)
    # The underdog wins: once ruled, it is in the semi-final for certain, the favourite is out.
    underdog = max((match.entry_a, match.entry_b), key=lambda e: e.seed)
    favourite = min((match.entry_a, match.entry_b), key=lambda e: e.seed)
    services.match_rule(
        actor=organiser, match=match, winner_entry_id=underdog.pk, reason="score sheet"
    )
    after = api.get(f"/api/events/{event.pk}/forecast/").json()
    entries = {e["entry"]: e for e in after["entries"]}
    assert dict((r["round"], r["chance"]) for r in entries[underdog.pk]["reach"])[2] == 1.0
    assert favourite.pk not in entries
    assert match.pk not in {m["match"] for m in after["matches"]}
    won_before = {e["entry"]: e["win"] for e in before["entries"]}[underdog.pk]
    assert entries[underdog.pk]["win"] > won_before


@pytest.mark.parametrize("stored", [None, False])
def test_without_a_passing_evaluation_nothing_is_shown(client, organiser, stored):
    event = _rated_knockout(organiser)
    if stored is not None:
        evaluation(better=stored)
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "bout-forecast" not in page and "forecast-table" not in page
    match = _first_match(event)
    assert (
        "Chance to win" not in client.get(reverse("match-page", args=[match.pk])).content.decode()
    )
    answer = client_for(None).get(f"/api/events/{event.pk}/forecast/").json()
    assert answer["shown"] is False and answer["entries"] == [] and answer["explanation"]
    assert (answer["evaluation"] is None) is (stored is None)
    assert client_for(None).get(f"/api/matches/{match.pk}/forecast/").json()["chance_a"] is None


def test_an_unpublished_championships_forecasts_are_hidden_like_it(client, organiser, outsider):
    event = _rated_knockout(organiser, published=False)
    evaluation(better=True)
    match = _first_match(event)
    for who in (None, outsider):
        assert client_for(who).get(f"/api/events/{event.pk}/forecast/").status_code == 404
        assert client_for(who).get(f"/api/matches/{match.pk}/forecast/").status_code == 404
    assert client.get(reverse("event-page", args=[event.pk])).status_code == 404
    mine = client_for(organiser).get(f"/api/events/{event.pk}/forecast/").json()
    assert mine["ready"] and len(mine["entries"]) == 8


def test_a_swiss_event_shows_each_entrants_chance_to_win(client, organiser):
    champ = builders.championship(organiser)
    event = services.event_create(
        actor=organiser,
        championship=champ,
        name="Swiss",
        format="swiss",
        swiss_rounds=3,
        games_per_match=1,
    )
    for index, player in enumerate(builders.players(6)):
        services.entry_register(actor=organiser, event=event, player=player)
        rate(player, 2100.0 - 60 * index)
    services.event_seed(actor=organiser, event=event)
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    evaluation(better=True)
    answer = client_for(None).get(f"/api/events/{event.pk}/forecast/").json()
    assert answer["ready"] and answer["method"] == "simulation" and answer["runs"] >= 1000
    assert sum(e["win"] for e in answer["entries"]) == pytest.approx(1.0)
    assert len(answer["matches"]) == 3
    page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    assert "Chance to win" in page
    # The chances are columns of the one standings table (issue 28: no second table).
    assert "Swiss standings" not in page and page.count('<table class="table standings">') == 1
    standings = page[page.index('<table class="table standings">') :]
    assert len(re.findall(r'<td class="num">(?:\d+|&lt;1|&gt;99)%</td>', standings)) >= 6


def test_a_pair_is_as_strong_as_its_partners_mean(organiser):
    champ = builders.championship(organiser)
    event = services.event_create(
        actor=organiser,
        championship=champ,
        name="Doubles",
        format="knockout",
        entry_kind="pair",
        games_per_match=1,
    )
    a, b, c, d = builders.players(4)
    for player, value in ((a, 2000.0), (b, 1700.0), (c, 1850.0), (d, 1850.0)):
        rate(player, value)
    services.pair_register(actor=organiser, event=event, player=a, partner=b)
    services.pair_register(actor=organiser, event=event, player=c, partner=d)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    evaluation(better=True)
    final = Match.objects.get(event=event, status=MatchStatus.SCHEDULED)
    answer = client_for(None).get(f"/api/matches/{final.pk}/forecast/").json()
    assert answer["chance_a"] == pytest.approx(0.5, abs=1e-9)


def _queries(client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_a_forecast_costs_the_same_queries_for_8_and_64_entrants(client, organiser):
    from tournaments.pages import cache as page_cache

    counts = []
    for size in (8, 64):
        event = builders.knockout(organiser, builders.championship(organiser), size)
        for entry in Entry.objects.filter(event=event).select_related("player"):
            rate(entry.player, 2000.0 - entry.seed)
        evaluation(better=True)
        url = reverse("event-live", args=[event.pk])
        page_cache.forget(championship_id=event.championship_id, event_id=event.pk)
        cold = _queries(client, url)
        warm = _queries(client, url)
        assert "bout-forecast" in client.get(url).content.decode()
        counts.append((cold, warm))
    assert counts[0] == counts[1]


def test_a_swiss_page_built_before_its_forecast_is_ready_is_not_kept(organiser):
    from tournaments.forecasts import selectors
    from tournaments.forecasts import services as forecast_services

    champ = builders.championship(organiser)
    event = services.event_create(
        actor=organiser, championship=champ, name="Swiss", format="swiss", swiss_rounds=2
    )
    for player in builders.players(4):
        services.entry_register(actor=organiser, event=event, player=player)
    services.event_seed(actor=organiser, event=event)
    event = services.draw_generate(actor=organiser, event=event, draw_seed=1)
    shown = evaluation(better=True)
    assert selectors.forecast_state(event) == f"e{shown.pk}p"
    forecast_services.event_forecast(event)  # the task's work (run in-process here)
    assert selectors.forecast_state(event) == f"e{shown.pk}r"
    knockout = _rated_knockout(organiser)
    assert selectors.forecast_state(knockout) == f"e{shown.pk}"
