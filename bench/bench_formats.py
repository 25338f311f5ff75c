"""Timing of the pure tournament-format algorithms (no database).

Run with `python -m bench.bench_formats`. Every figure is the best of several runs (the least
disturbed by other processes) plus the median, in milliseconds, for 1,024 entries unless the
label says otherwise.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from decimal import Decimal

from tournaments.formats import (
    GroupDrawMethod,
    GroupEntrant,
    SwissPlayer,
    advance_bracket,
    chart_order,
    game_tps,
    group_draw,
    sections_draw,
    seeded_draw,
    swiss_pairings,
)

ENTRIES = 1024
COUNTRIES = [f"C{i:02d}" for i in range(40)]


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return min(runs), statistics.median(runs)


def _report(label: str, fn: Callable[[], object], repeat: int = 5) -> None:
    best, median = _time(fn, repeat)
    print(f"  {label:<58} best {best:8.2f} ms   median {median:8.2f} ms")


def _swiss_history(
    count: int, rounds: int, *, tps: bool, seed: int = 1
) -> tuple[list[SwissPlayer[int]], list[tuple[int, int]], list[int]]:
    """Standings, pairings and byes after `rounds` rounds of random results."""
    rng = random.Random(seed)
    scores: dict[int, Decimal] = dict.fromkeys(range(1, count + 1), Decimal(0))
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    for round_no in range(1, rounds + 1):
        standings = [SwissPlayer(k, scores[k], k) for k in scores]
        result = swiss_pairings(standings, played=played, byes=byes, round_no=round_no)
        for a, b in result.pairings:
            if tps:
                tps_a, tps_b = game_tps(rng.randint(0, 30), rng.randint(0, 30))
            else:
                tps_a, tps_b = rng.choice([(Decimal(1), Decimal(0)), (Decimal(0), Decimal(1))])
            scores[a] += tps_a
            scores[b] += tps_b
        played += result.pairings
        if result.bye is not None:
            byes.append(result.bye)
    return [SwissPlayer(k, scores[k], k) for k in scores], played, byes


def _cold(draw: Callable[[int], object], entries: int) -> object:
    chart_order.cache_clear()
    return draw(entries)


def main() -> None:
    rng = random.Random(2026)
    entrants = [GroupEntrant(key=i, country=rng.choice(COUNTRIES)) for i in range(1, ENTRIES + 1)]

    print(f"Tournament formats, pure Python ({ENTRIES:,} entries unless stated)")
    print("Group draw (256 groups of 4, 40 countries kept apart):")
    _report("snake", lambda: group_draw(entrants, 256, method=GroupDrawMethod.SNAKE))
    _report(
        "pot by pot, random (draw seed 7)",
        lambda: group_draw(entrants, 256, method=GroupDrawMethod.POTS, draw_seed=7),
    )

    print("Swiss round 5 after 4 rounds of random results:")
    for tps, label in ((False, "ranked on game points (score groups)"), (True, "ranked on TPs")):
        standings, played, byes = _swiss_history(ENTRIES, 4, tps=tps)
        _report(
            label,
            lambda s=standings, p=played, b=byes: swiss_pairings(s, played=p, byes=b, round_no=5),
        )

    print("Knockout draw:")
    # chart_order is memoised per size; clear it so the figure includes building the chart.
    _report("seeded chart, 1,024 entries (no byes)", lambda: _cold(seeded_draw, ENTRIES))
    _report("seeded chart, 1,000 entries (24 byes)", lambda: _cold(seeded_draw, 1000))
    _report(
        "16 seeded sections with random draw, 1,024 entries",
        lambda: sections_draw(ENTRIES, sections=16, draw_seed=7),
    )

    print("Advancing a 128-player knockout from stored results (all 127 matches):")
    draw = seeded_draw(128)
    results = {(r, i): rng.randint(0, 1) for r in range(1, 8) for i in range(128 >> r)}
    _report(
        "advance_bracket (winners fed through next_slot)", lambda: advance_bracket(draw, results)
    )


if __name__ == "__main__":
    main()
