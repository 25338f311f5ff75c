"""`manage.py forecast_history`: a small stored history scored by hand, what it stores, and the
verdict that decides whether pages show forecasts."""

from __future__ import annotations

import io
import re
from math import log

import pytest
from django.core.management import call_command

from ratings.models import EloStanding
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game
from tournaments import services
from tournaments.forecasts import selectors
from tournaments.forecasts.sides import game_model
from tournaments.models import ForecastEvaluation

pytestmark = pytest.mark.django_db


def _standing(event_id: int, player, rating: float, games: int) -> None:
    EloStanding.objects.create(
        event_id=event_id,
        player=player,
        rating_before=rating,
        games_before=games,
        rating_after=rating,
        games_after=games + 2,
        games=2,
        share=0.5,
        expected_share=0.5,
        performance=rating,
        opposition_average=1850.0,
    )


def _event(organiser, name: str = "History Cup"):
    champ = services.championship_create(
        actor=organiser, name=name, year=2026, category="open", published=True
    )
    return services.event_create(
        actor=organiser, championship=champ, name="Knockout", format="knockout"
    )


def test_the_command_scores_four_games_as_by_hand(organiser):
    event = _event(organiser)
    ana, bela, cara = PlayerFactory(), PlayerFactory(), PlayerFactory()
    # What each brought to the event: Ana 2000, Bela 1800, Cara unrated (counts as 1850).
    _standing(event.pk, ana, 2000.0, 40)
    _standing(event.pk, bela, 1800.0, 40)
    _standing(event.pk, cara, 1850.0, 0)
    games = [
        (ana, bela, (16.0, 4.0), (30, 22)),  # the favourite (gap +200) won
        (bela, cara, (10.0, 10.0), (25, 25)),  # a draw (gap −50)
        (cara, ana, (15.0, 5.0), (31, 26)),  # an upset (gap −150)
        (ana, cara, (13.3, 6.7), (20, 19)),  # the favourite (gap +150) won
    ]
    for a, b, tps, scores in games:
        make_game([a, b], list(scores), context="tournament", event_id=event.pk, tps=list(tps))
    # A game of an event the Elo has not calculated: no standing, left out.
    other = _event(organiser, "Unrated Cup")
    make_game([ana, bela], [30, 20], context="tournament", event_id=other.pk, tps=[16.2, 3.8])

    model = game_model()
    # Each gap is damped by how well the two ratings are known: 40 games each, or unrated.
    known, unknown = model.rating_error(40), model.rating_error(0)
    gaps = [
        model.effective_gap(200.0, known, known),
        model.effective_gap(-50.0, known, unknown),
        model.effective_gap(-150.0, unknown, known),
        model.effective_gap(150.0, known, unknown),
    ]
    chances = [model.win_chance(gap) for gap in gaps]
    outcomes = [1.0, 0.5, 1.0, 1.0]
    brier = sum((c - y) ** 2 for c, y in zip(chances, outcomes, strict=True)) / 4
    loss = (
        -sum(y * log(c) + (1 - y) * log(1 - c) for c, y in zip(chances, outcomes, strict=True)) / 4
    )
    # The higher rated side won games 1 and 4, drew game 2 (Cara, unrated 1850 > 1800) and lost
    # game 3: a hit rate of 2.5 / 4.
    h = 2.5 / 4
    favourite = [h, 1 - h, 1 - h, h]  # the chance each game's side A had under the baseline
    favourite_brier = sum((f - y) ** 2 for f, y in zip(favourite, outcomes, strict=True)) / 4

    out = io.StringIO()
    call_command("forecast_history", stdout=out)
    text = out.getvalue()

    stored = ForecastEvaluation.objects.get()
    assert stored.games == 4 and stored.decisive == 4
    assert stored.brier == pytest.approx(brier)
    assert stored.log_loss == pytest.approx(loss)
    assert stored.coin_brier == pytest.approx((0.25 * 3 + 0) / 4)
    assert stored.coin_log_loss == pytest.approx(log(2))
    assert stored.hit_rate == pytest.approx(h)
    assert stored.favourite_brier == pytest.approx(favourite_brier)
    assert stored.better is False  # four games prove nothing
    row = re.search(r"forecasts\s+([\d.]+)\s+([\d.]+)", text)
    assert (float(row[1]), float(row[2])) == (round(brier, 4), round(loss, 4))
    assert "Games left out (their event's Elo not yet calculated): 1" in text
    assert "NOT better than a coin flip" in text
    assert (
        stored.figures["calibration"][0]["count"]
        + sum(b["count"] for b in stored.figures["calibration"][1:])
        == 4
    )


def test_a_dry_run_stores_nothing():
    call_command("forecast_history", "--dry-run", stdout=io.StringIO())
    assert not ForecastEvaluation.objects.exists()


def test_the_latest_evaluation_decides_whether_forecasts_show(django_capture_on_commit_callbacks):
    from tests.tournaments.forecasts.helpers import evaluation

    assert selectors.shown_evaluation() is None  # nothing tested yet: nothing shown
    passed = evaluation(better=True)
    assert selectors.shown_evaluation() == passed
    evaluation(better=False)
    assert selectors.shown_evaluation() is None


def test_storing_an_evaluation_replaces_the_cached_answer(django_capture_on_commit_callbacks):
    from tests.tournaments.forecasts.helpers import evaluation

    evaluation(better=True)
    assert selectors.shown_evaluation() is not None  # cached now
    with django_capture_on_commit_callbacks(execute=True):
        call_command("forecast_history", stdout=io.StringIO())  # an empty history: not better
    assert selectors.shown_evaluation() is None


def test_the_beat_task_tests_the_forecasts_again():
    from tournaments.forecasts.tasks import evaluate_forecasts

    assert evaluate_forecasts() is False  # an empty history proves nothing
    assert ForecastEvaluation.objects.get().games == 0
