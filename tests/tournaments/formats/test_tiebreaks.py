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
from tournaments.formats.points import game_tps
from tournaments.formats.swiss import SwissPlayer, swiss_pairings
from tournaments.formats.tiebreaks import (
    CRITERIA,
    DRAW,
    LOSS,
    WIN,
    Competitor,
    RoundResult,
    criteria_check,
    ranked_standings,
    separated_by,
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


# --- separated_by: the first criterion, in the event's order, on which a row differs from the
# row directly above it (the score first); "seed" when the two are level on every one.


def _bye(tps: str) -> RoundResult:
    return RoundResult(None, D(tps), played=False)


def _win(opponent: str, tps: str = "15.0") -> RoundResult:
    return RoundResult(opponent, D(tps), D(20) - D(tps), WIN)


def test_a_tied_group_reordered_by_a_tie_break_is_below_the_row_above_by_the_score():
    """Q (seed 2) and R (seed 3) are level on TPs; R's rating puts R first. R is below P
    because of the TPs, Q below R because of the rating. (R used to say "seed": the score's
    label went to Q, the group's first member by seed, and R, the new leader, had none.)"""
    field_ = [
        Competitor("P", 1, (_bye("30"),)),
        Competitor("Q", 2, (_bye("20"),), rating=1500.0),
        Competitor("R", 3, (_bye("20"),), rating=1600.0),
        Competitor("S", 4, (_bye("10"),)),
    ]
    rows = ranked_standings(field_, ["tp_total", "rating"])
    assert order(rows) == [("P", None), ("R", "tp_total"), ("Q", "rating"), ("S", "tp_total")]


def test_a_later_tie_break_reorders_a_group_an_earlier_one_split():
    """Q, R and T are level on TPs; wins put T last among them; the rating then puts R above Q.
    Each row is labelled by the first criterion on which it differs from its neighbour above."""
    field_ = [
        Competitor("P", 1, (_bye("30"),)),
        Competitor("Q", 2, (_win("x"), _bye("5")), rating=1500.0),
        Competitor("R", 3, (_win("x"), _bye("5")), rating=1600.0),
        Competitor("T", 4, (_bye("20"),), rating=2000.0),
        Competitor("S", 5, (_bye("10"),)),
    ]
    rows = ranked_standings(field_, ["tp_total", "wins", "rating"])
    assert order(rows) == [
        ("P", None),
        ("R", "tp_total"),
        ("Q", "rating"),
        ("T", "wins"),
        ("S", "tp_total"),
    ]


def test_match_points_groups_led_by_their_tie_break_winner():
    """The match-points groups are reordered by TPs: each group's new leader is below the group
    above it on match points, the others by TPs; two players level on everything, by seed."""
    field_ = [
        Competitor("Z", 6, (_win("x", "13.3"), _win("y", "13.3"))),
        Competitor("A", 1, (_win("x", "13.3"),)),
        Competitor("B", 2, (_win("x", "16.0"),)),
        Competitor("C", 3, (_bye("6.0"),), rating=None),
        Competitor("D", 4, (RoundResult("y", D("8.0"), D("12.0"), LOSS),)),
        Competitor("E", 5, (RoundResult("y", D("8.0"), D("12.0"), LOSS),)),
    ]
    # C's bye counts as a win for match points (1), with 6 TPs.
    rows = ranked_standings(field_, ["match_points", "tp_total"])
    assert order(rows) == [
        ("Z", None),
        ("B", "match_points"),
        ("A", "tp_total"),
        ("C", "tp_total"),
        ("D", "match_points"),
        ("E", "seed"),
    ]


def test_separated_by_compares_the_two_rows_in_the_event_order():
    criteria = ("tp_total", "buchholz", "sonneborn_berger")
    above = {"tp_total": D("30"), "buchholz": D("80"), "sonneborn_berger": D("40")}
    assert separated_by(above, {**above, "tp_total": D("29.9")}, criteria) == "tp_total"
    # A difference on a later criterion does not hide one on an earlier criterion.
    row = {"tp_total": D("29.9"), "buchholz": D("90"), "sonneborn_berger": D("1")}
    assert separated_by(above, row, criteria) == "tp_total"
    assert separated_by(above, {**above, "sonneborn_berger": D("39")}, criteria) == (
        "sonneborn_berger"
    )
    assert separated_by(above, dict(above), criteria) == "seed"
    # No rating ranks last: a missing value differs from a present one.
    assert separated_by({"rating": D("1500")}, {"rating": None}, ("rating",)) == "rating"


def _seven_round_swiss(players: int = 20) -> list[Competitor]:
    """A 7-round Swiss paired by `swiss_pairings`. Every game is a draw or a 10-tile win, so
    many players end level on TPs and on match points: tied groups that the next criterion
    reorders, below rows with a better score."""
    results: dict[int, list[RoundResult]] = {k: [] for k in range(1, players + 1)}
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    for round_no in range(1, 8):
        standings = [SwissPlayer(k, sum((r.tps for r in results[k]), D(0)), k) for k in results]
        paired = swiss_pairings(standings, played=played, byes=byes, round_no=round_no)
        for board, (a, b) in enumerate(paired.pairings):
            outcome = (a * 3 + b * 5 + round_no * 7 + board) % 3
            scores = [(20, 20), (30, 20), (20, 30)][outcome]
            tps_a, tps_b = game_tps(*scores)
            results[a].append(RoundResult(b, tps_a, tps_b, _points(tps_a, tps_b)))
            results[b].append(RoundResult(a, tps_b, tps_a, _points(tps_b, tps_a)))
            played.append((a, b))
        if paired.bye is not None:
            results[paired.bye].append(_bye("16.2"))
            byes.append(paired.bye)
    return [Competitor(k, k, tuple(results[k])) for k in results]


@pytest.mark.parametrize(
    "criteria",
    [
        ("tp_total", "buchholz", "sonneborn_berger"),
        ("match_points", "tp_total", "buchholz", "wins"),
        ("tp_total", "direct_encounter", "median_buchholz", "sonneborn_berger"),
    ],
)
def test_every_row_of_a_seven_round_swiss_names_the_first_criterion_it_differs_on(criteria):
    rows = ranked_standings(_seven_round_swiss(), criteria)
    for above, row in zip(rows, rows[1:], strict=False):
        first = next((k for k in criteria if above.values[k] != row.values[k]), "seed")
        assert row.separated_by == first, (row.place, row.values, above.values)
    # The field has what the old labels got wrong: a group level on the score whose first row
    # (by the next criterion) is not its best seed, below a row with a better score.
    score = criteria[0]
    reordered = [
        row
        for row, below in zip(rows[1:], rows[2:], strict=False)
        if row.separated_by == score
        and below.values[score] == row.values[score]
        and row.key > below.key
    ]
    assert reordered
