"""Forecasts: a 128 knockout (exact over the bracket) and Swiss events (simulated), in pure
Python, then a 128 knockout's forecast as the pages work it out on PostgreSQL (its reads and
its maths). Run with `python -m bench.bench_forecast` (part of `make bench`).

"Cold" builds the model afresh every run (its grid of rating gaps solved again: what a new
process pays once); "warm" reuses it (every later forecast in that process). Each figure is the
best of several runs and their median, in milliseconds. The goal: a 128 knockout in under a
second (issue 30).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

from tournaments.formats import chart_order
from tournaments.formats.forecast import (
    ChanceTable,
    GameModel,
    KnockoutMatch,
    MatchFormat,
    SwissEntrant,
    knockout_forecast,
    swiss_forecast,
)
from tournaments.formats.forecast.match import OutcomeTable


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return min(runs), statistics.median(runs)


def _report(label: str, fn: Callable[[], object], repeat: int = 5) -> None:
    best, median = _time(fn, repeat)
    print(f"  {label:<62} best {best:8.1f} ms   median {median:8.1f} ms", flush=True)


def _bracket(size: int) -> list[KnockoutMatch]:
    """A fresh knockout of `size` on the standard seeded chart (1 v 128, 64 v 65, ...)."""
    order = chart_order(size)
    rounds = size.bit_length() - 1
    matches = []
    for number in range(1, rounds + 1):
        for index in range(size >> number):
            sides = (
                (order[2 * index] - 1, order[2 * index + 1] - 1) if number == 1 else (None, None)
            )
            matches.append(
                KnockoutMatch(
                    key=(number, index),
                    round=number,
                    sides=sides,
                    next=((number + 1, index // 2), index % 2) if number < rounds else None,
                )
            )
    return matches


def _knockout(ratings: list[float], fmt: MatchFormat, model: GameModel | None) -> None:
    table = ChanceTable(model or GameModel(), fmt)
    knockout_forecast(_bracket(len(ratings)), lambda a, b: table.chance(ratings[a] - ratings[b]))


def pure() -> None:
    rng = random.Random(1)
    ratings = sorted((rng.gauss(1850, 250) for _ in range(128)), reverse=True)
    print("128 knockout, ratings ~ N(1850, 250), seeded chart (exact over the bracket):")
    for label, fmt in (
        ("1 game, up to 3 extra games (the demo's matches)", MatchFormat(1, 1, 1, 3)),
        ("2 games", MatchFormat(2)),
        ("3 games", MatchFormat(3)),
    ):
        fmt = MatchFormat(
            fmt.games, extra_margin=fmt.extra_margin, max_extra_games=fmt.max_extra_games
        )
        _report(f"{label}, cold", lambda fmt=fmt: _knockout(ratings, fmt, None))
        warm = GameModel()
        _knockout(ratings, fmt, warm)
        _report(f"{label}, warm", lambda fmt=fmt, warm=warm: _knockout(ratings, fmt, warm))
    print("Swiss, 2 games a match, simulated to ±1 point on the favourite (warm model):")
    for entrants, left in ((24, 2), (24, 4), (64, 3)):
        rng = random.Random(entrants)
        field = [
            SwissEntrant(i, i + 1, 2 * rng.randrange(0, 300), (rng.gauss(1850, 250),))
            for i in range(entrants)
        ]
        model = GameModel()
        table = OutcomeTable(model, MatchFormat(2))
        runs = []

        def simulate(field=field, left=left, model=model, table=table, runs=runs) -> None:
            result = swiss_forecast(
                field, model=model, fmt=MatchFormat(2), rounds_left=left, seed=1, outcomes=table
            )
            runs.append(result.runs)

        _report(f"{entrants} entrants, {left} rounds left", simulate, repeat=3)
        print(f"  {'':62} ({runs[-1]:,} runs)")


def database() -> None:
    from bench.scratch import scratch_database

    with scratch_database("tantrix_bench_forecast") as url:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DEBUG", "1")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tantrix_site.settings")
        import django

        django.setup()
        from ratings.models import Rating, RatingSystem
        from tests.factories import make_organiser
        from tests.tournaments.pages import builders
        from tournaments.forecasts import events, sides
        from tournaments.models import Entry

        organiser = make_organiser()
        event = builders.knockout(organiser, builders.championship(organiser), 128)
        rng = random.Random(2)
        Rating.objects.bulk_create(
            Rating(player_id=pid, system=RatingSystem.ELO, value=rng.gauss(1850, 250), games=40)
            for pid in Entry.objects.filter(event=event).values_list("player_id", flat=True)
        )
        print("128 knockout on PostgreSQL, first round played, as the pages work it out:")

        def cold() -> None:
            sides._MODELS.clear()
            sides._CHANCES.clear()
            events.knockout_event(event)

        _report("reads and maths, cold model", cold)
        _report("reads and maths, warm model", lambda: events.knockout_event(event))


def main() -> None:
    pure()
    database()


if __name__ == "__main__":
    main()
