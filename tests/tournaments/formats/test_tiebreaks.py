"""Tie-breaks, each on a hand-computed example.

The field: four players, a round robin of three rounds, TPs from the table.
  R1  A 15.0 – 5.0 B (A by 5)      C 10.0 – 10.0 D (draw)
  R2  A 6.7 – 13.3 C (C by 1)      B 14.3 – 5.7 D (B by 3)
  R3  A 13.3 – 6.7 D (A by 1)      B 10.0 – 10.0 C (draw)
TP totals: A 35.0, B 29.3, C 33.3, D 22.4 (120 = 6 games × 20).
Match points: A 2 (W L W), B 1.5 (L W D), C 2 (D W D), D 0.5 (D L L).
"""

from decimal import Decimal

import pytest

from tournaments.formats import FormatError
from tournaments.formats.tiebreaks import (
    CRITERIA,
    DRAW,
    LOSS,
    WIN,
    Competitor,
    RoundResult,
    criteria_check,
    ranked_standings,
)

D = Decimal
GAMES = [
    ("A", "B", "15.0", "5.0"),
    ("C", "D", "10.0", "10.0"),
    ("A", "C", "6.7", "13.3"),
    ("B", "D", "14.3", "5.7"),
    ("A", "D", "13.3", "6.7"),
    ("B", "C", "10.0", "10.0"),
]
SEEDS = {"A": 1, "B": 2, "C": 3, "D": 4}


def _points(mine: Decimal, theirs: Decimal) -> Decimal:
    return WIN if mine > theirs else DRAW if mine == theirs else LOSS


def field(ratings: dict | None = None, extra: dict | None = None) -> list[Competitor]:
    results: dict[str, list[RoundResult]] = {k: [] for k in SEEDS}
    for a, b, ta, tb in GAMES:
        ta, tb = D(ta), D(tb)
        results[a].append(RoundResult(b, ta, tb, _points(ta, tb)))
        results[b].append(RoundResult(a, tb, ta, _points(tb, ta)))
    for key, more in (extra or {}).items():
        results[key].extend(more)
    return [Competitor(k, SEEDS[k], tuple(results[k]), (ratings or {}).get(k)) for k in SEEDS]


def values(criteria, key):
    return {row.key: row.values[key] for row in ranked_standings(field(), criteria)}


def order(rows):
    return [(row.key, row.separated_by) for row in rows]


def test_tp_total():
    rows = ranked_standings(field(), ["tp_total"])
    assert order(rows) == [("A", None), ("C", "tp_total"), ("B", "tp_total"), ("D", "tp_total")]
    assert rows[0].values["tp_total"] == D("35.0") and rows[3].place == 4


def test_match_points_tie_then_seed():
    rows = ranked_standings(field(), ["match_points"])
    assert order(rows) == [("A", None), ("C", "seed"), ("B", "match_points"), ("D", "match_points")]
    assert [r.values["match_points"] for r in rows] == [D(2), D(2), D("1.5"), D("0.5")]


def test_tp_percent():
    got = values(["tp_total", "tp_percent"], "tp_percent")
    assert got["A"] == D("35.0") * 100 / 60  # 58.33...%
    assert got["D"] == D("22.4") * 100 / 60


def test_buchholz_on_tps():
    # A met B, C, D: 29.3 + 33.3 + 22.4; D met C, B, A: 33.3 + 29.3 + 35.0.
    got = values(["tp_total", "buchholz"], "buchholz")
    assert got == {"A": D("85.0"), "B": D("90.7"), "C": D("86.7"), "D": D("97.6")}


def test_buchholz_on_match_points_ties_a_and_c():
    # A: B 1.5 + C 2 + D 0.5 = 4; C: D 0.5 + A 2 + B 1.5 = 4: still level.
    rows = ranked_standings(field(), ["match_points", "buchholz"])
    assert order(rows)[:2] == [("A", None), ("C", "seed")]
    assert rows[0].values["buchholz"] == rows[1].values["buchholz"] == D(4)


def test_median_buchholz_drops_best_and_worst_opponent():
    got = values(["tp_total", "median_buchholz"], "median_buchholz")
    assert got == {"A": D("29.3"), "B": D("33.3"), "C": D("29.3"), "D": D("33.3")}


def test_sonneborn_berger_on_match_points_separates_a_and_c():
    # A beat B (1.5) and D (0.5): 2.0. C drew D (0.5 × ½), beat A (2), drew B (1.5 × ½): 3.0.
    rows = ranked_standings(field(), ["match_points", "buchholz", "sonneborn_berger"])
    assert order(rows) == [
        ("C", None),
        ("A", "sonneborn_berger"),
        ("B", "match_points"),
        ("D", "match_points"),
    ]
    assert rows[0].values["sonneborn_berger"] == D("3.0")
    assert rows[1].values["sonneborn_berger"] == D("2.0")


def test_sonneborn_berger_on_tps():
    # A: B 29.3 + D 22.4 = 51.7; B: D 22.4 + ½ C 33.3; C: ½ D 22.4 + A 35.0 + ½ B 29.3.
    got = values(["tp_total", "sonneborn_berger"], "sonneborn_berger")
    assert got == {"A": D("51.7"), "B": D("39.05"), "C": D("60.85"), "D": D("16.65")}


def test_direct_encounter_among_the_level_players_only():
    rows = ranked_standings(field(), ["match_points", "direct_encounter"])
    assert order(rows)[:2] == [("C", None), ("A", "direct_encounter")]
    # Computed among A and C alone: C won their game, 1 match point to 0.
    assert rows[0].values["direct_encounter"] == D(1)
    assert rows[1].values["direct_encounter"] == D(0)


def test_number_of_wins():
    rows = ranked_standings(field(), ["match_points", "wins"])
    assert order(rows)[:2] == [("A", None), ("C", "wins")]
    assert (rows[0].values["wins"], rows[1].values["wins"]) == (D(2), D(1))


def test_rating_and_a_missing_rating_last():
    rows = ranked_standings(field(ratings={"A": 1700.0, "C": 1850.25}), ["match_points", "rating"])
    assert order(rows)[:2] == [("C", None), ("A", "rating")]
    rows = ranked_standings(field(ratings={"C": 1500.0}), ["match_points", "rating"])
    assert order(rows)[:2] == [("C", None), ("A", "rating")]
    assert rows[1].values["rating"] is None


def test_a_bye_scores_but_adds_no_opponent():
    bye = RoundResult(None, D("16.2"), played=False)
    rows = ranked_standings(field(extra={"D": [bye]}), ["tp_total", "buchholz", "tp_percent"])
    d = next(r for r in rows if r.key == "D")
    assert d.values["tp_total"] == D("38.6")
    # D's opponents' scores, unchanged by the bye; TP% over the three games played.
    assert d.values["buchholz"] == D("97.6")
    assert d.values["tp_percent"] == D("22.4") * 100 / 60


def test_criteria_check():
    assert criteria_check(["tp_total", "buchholz"]) == ("tp_total", "buchholz")
    for bad, words in [
        ([], "at least one"),
        (["tp_total", "elo"], "unknown tie-break elo"),
        (["tp_total", "wins", "wins"], "wins is repeated"),
        (["buchholz", "tp_total"], "must be TP total or match points"),
    ]:
        with pytest.raises(FormatError, match=words):
            criteria_check(bad)
    assert all(c.label for c in CRITERIA.values())
