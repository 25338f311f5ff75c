"""Round robin by Berger tables."""

from itertools import combinations

import pytest

from tournaments.formats import FormatError, berger_table, round_robin


def test_berger_table_for_6_is_the_published_one():
    assert berger_table(6) == (
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    )


def test_berger_table_for_8_is_the_published_one():
    # FIDE Handbook C.05 Annex 1, 7 or 8 players.
    assert berger_table(8) == (
        ((1, 8), (2, 7), (3, 6), (4, 5)),
        ((8, 5), (6, 4), (7, 3), (1, 2)),
        ((2, 8), (3, 1), (4, 7), (5, 6)),
        ((8, 6), (7, 5), (1, 4), (2, 3)),
        ((3, 8), (4, 2), (5, 1), (6, 7)),
        ((8, 7), (1, 6), (2, 5), (3, 4)),
        ((4, 8), (5, 3), (6, 2), (7, 1)),
    )


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_once_and_order_is_balanced(n):
    rounds = round_robin(list(range(1, n + 1)))
    assert len(rounds) == (n if n % 2 else n - 1)
    met = [frozenset(p) for r in rounds for p in r.pairings]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in combinations(range(1, n + 1), 2)), key=sorted
    )
    for r in rounds:
        playing = [x for p in r.pairings for x in p] + ([r.bye] if r.bye is not None else [])
        assert sorted(playing) == list(range(1, n + 1))
    if n % 2:
        assert sorted(r.bye for r in rounds) == list(range(1, n + 1))
    firsts = [sum(p[0] == x for r in rounds for p in r.pairings) for x in range(1, n + 1)]
    assert max(firsts) - min(firsts) <= 1


def test_double_round_robin_reverses_the_order():
    rounds = round_robin(["A", "B", "C", "D"], double=True)
    assert len(rounds) == 6 and [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    for first, second in zip(rounds[:3], rounds[3:], strict=True):
        assert second.pairings == tuple((b, a) for a, b in first.pairings)


def test_odd_field_rests_whoever_meets_the_bye():
    rounds = round_robin(["A", "B", "C", "D", "E"])
    assert rounds[0].bye == "A" and rounds[0].pairings == (("B", "E"), ("C", "D"))


def test_round_robin_errors():
    with pytest.raises(FormatError, match="at least 2"):
        round_robin(["A"])
    with pytest.raises(FormatError, match="twice"):
        round_robin(["A", "A"])
