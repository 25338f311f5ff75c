"""Group draw with countries apart, group tables on TP%, and qualifiers."""

import random
from collections import Counter
from decimal import Decimal

import pytest

from tournaments.formats import (
    FormatError,
    GroupDrawMethod,
    GroupEntrant,
    PlayedGame,
    TieBreak,
    game_tps,
    group_draw,
    group_qualifiers,
    group_table,
    round_robin,
)

D = Decimal
COUNTRIES = ["DE", "GB", "NZ", "CZ", "PL", "US", "FR", "NL", "JP", "IT"]


def clashes(groups, country_of):
    return sum(
        k * (k - 1) // 2
        for group in groups
        for k in Counter(country_of[key] for key in group).values()
    )


def field(count, groups, rng):
    """Entrants in seed order with countries, no country bigger than the number of groups."""
    countries = []
    for country in COUNTRIES:
        countries += [country] * rng.randint(1, groups)
    rng.shuffle(countries)
    countries = (countries * (count // len(countries) + 1))[:count]
    # Trim any country that the repetition pushed over the limit to a fresh one.
    seen = Counter()
    for i, country in enumerate(countries):
        seen[country] += 1
        if seen[country] > groups:
            countries[i] = f"X{i}"
    return [GroupEntrant(key=i + 1, country=c) for i, c in enumerate(countries)]


def test_snake_without_countries():
    entrants = [GroupEntrant(key=i) for i in range(1, 17)]
    assert group_draw(entrants, 4) == (
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    )


def test_group_sizes_differ_by_at_most_one_and_one_per_pot():
    entrants = [GroupEntrant(key=i) for i in range(1, 19)]
    for method in GroupDrawMethod:
        groups = group_draw(entrants, 4, method=method, draw_seed=1)
        assert sorted(len(g) for g in groups) == [4, 4, 5, 5]
        for group in groups:
            pots = [(key - 1) // 4 for key in group]
            assert pots == sorted(set(pots))  # one per pot, in pot order


@pytest.mark.parametrize("method", list(GroupDrawMethod))
@pytest.mark.parametrize("draw_seed", range(8))
def test_group_draw_keeps_countries_apart(method, draw_seed):
    rng = random.Random(draw_seed)
    entrants = field(64, 16, rng)
    country_of = {e.key: e.country for e in entrants}
    groups = group_draw(entrants, 16, method=method, draw_seed=draw_seed)
    assert sorted(k for g in groups for k in g) == list(range(1, 65))
    assert clashes(groups, country_of) == 0


def test_snake_moves_a_compatriot_by_one_swap_within_the_pot():
    entrants = [GroupEntrant(key=i, country=c) for i, c in enumerate("ABCDEFGA", start=1)]
    # Plain snake: (1, 8), (2, 7), (3, 6), (4, 5), but 1 and 8 are both A: 8 swaps with 7.
    assert group_draw(entrants, 4) == ((1, 7), (2, 8), (3, 6), (4, 5))


def test_a_country_bigger_than_the_groups_is_spread_evenly():
    entrants = [GroupEntrant(key=i, country="DE" if i % 2 else "GB") for i in range(1, 25)]
    groups = group_draw(entrants, 4, method=GroupDrawMethod.POTS, draw_seed=3)
    for group in groups:
        assert Counter(1 if k % 2 else 0 for k in group) == {0: 3, 1: 3}


def test_pots_draw_is_reproducible_per_seed():
    entrants = field(48, 12, random.Random(1))
    a = group_draw(entrants, 12, method=GroupDrawMethod.POTS, draw_seed=42)
    assert a == group_draw(entrants, 12, method=GroupDrawMethod.POTS, draw_seed=42)
    assert a != group_draw(entrants, 12, method=GroupDrawMethod.POTS, draw_seed=43)


def test_group_draw_errors():
    entrants = [GroupEntrant(key=i) for i in range(7)]
    with pytest.raises(FormatError, match="cannot draw 7 entrants into 4 groups"):
        group_draw(entrants, 4)
    with pytest.raises(FormatError, match="twice"):
        group_draw([GroupEntrant(key=1)] * 4, 2)


def games(*results):
    return [PlayedGame(a, b, *game_tps(sa, sb)) for a, b, sa, sb in results]


def test_group_table_ranks_on_tp_percent():
    seeds = {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
    table = group_table(
        seeds,
        games(
            ("ann", "bob", 10, 8),  # 13.9 - 6.1
            ("cat", "dan", 12, 2),  # 16.2 - 3.8
            ("ann", "cat", 5, 9),  # 5.3 - 14.7
            ("bob", "dan", 9, 9),  # 10 - 10
            ("ann", "dan", 14, 4),  # 16.2 - 3.8
            ("bob", "cat", 3, 4),  # 6.7 - 13.3
        ),
    )
    assert [r.key for r in table] == ["cat", "ann", "bob", "dan"]
    cat = table[0]
    assert (cat.tps, cat.tps_available, cat.games) == (D("44.2"), D("60.0"), 3)
    assert cat.tp_percent == D("73.67") and cat.place == 1 and cat.separated_by is None
    assert all(r.separated_by is TieBreak.TP_PERCENT for r in table[1:])


def test_group_table_tie_breaks_head_to_head_then_seed():
    seeds = {"a": 1, "b": 2, "c": 3}
    # Everyone wins one game by 2: all on 50 % TP%. Then there is nothing head-to-head can do
    # (they are all level among themselves), totals are equal, so seed decides.
    table = group_table(seeds, games(("a", "b", 5, 3), ("b", "c", 5, 3), ("c", "a", 5, 3)))
    assert [r.key for r in table] == ["a", "b", "c"]
    assert [r.separated_by for r in table] == [None, TieBreak.SEED, TieBreak.SEED]
    # Two level on TP%: the one who won their game ranks higher even with the worse seed.
    seeds = {"x": 1, "y": 2, "z": 3, "w": 4}
    results = [
        PlayedGame("y", "x", D("12.0"), D("8.0")),
        PlayedGame("x", "z", D("14.0"), D("6.0")),
        PlayedGame("y", "w", D("10.0"), D("10.0")),
        PlayedGame("z", "w", D("10.0"), D("10.0")),
    ]
    table = group_table(seeds, results)
    # x: 22/40, y: 22/40 → level; y beat x head to head.
    assert [r.key for r in table][:2] == ["y", "x"]
    assert table[1].separated_by is TieBreak.HEAD_TO_HEAD


def test_player_without_games_ranks_on_seed_at_zero():
    table = group_table({"a": 2, "b": 1}, [])
    assert [r.key for r in table] == ["b", "a"] and table[0].tp_percent == D("0.00")


def test_150_entrants_in_groups_give_128_qualifiers():
    rng = random.Random(150)
    entrants = field(150, 30, rng)
    groups = group_draw(entrants, 30, method=GroupDrawMethod.POTS, draw_seed=150)
    assert sorted(len(g) for g in groups) == [5] * 30
    tables = []
    for group in groups:
        played = []
        for rnd in round_robin(list(group)):
            for a, b in rnd.pairings:
                # Better seeds tend to win; margins vary so TP% differs across groups.
                sa = rng.randint(0, 20) + (3 if a < b else 0)
                sb = rng.randint(0, 20) + (3 if b < a else 0)
                played.append(PlayedGame(a, b, *game_tps(sa, sb)))
        tables.append(group_table({key: key for key in group}, played))
    qualifiers = group_qualifiers(tables, 128)
    assert len(qualifiers) == 128 == len({q.key for q in qualifiers})
    assert sum(q.place <= 4 for q in qualifiers) == 120
    fifths = [q for q in qualifiers if q.place == 5]
    assert len(fifths) == 8 and all(q.best_placed for q in fifths)
    taken = {q.key for q in fifths}
    left_out = [r for t in tables for r in t if r.place == 5 and r.key not in taken]
    assert min(q.tp_percent for q in fifths) >= max(r.tp_percent for r in left_out)
    # Ordered by place, so group winners come first.
    assert [q.place for q in qualifiers] == sorted(q.place for q in qualifiers)


def test_qualifier_errors():
    table = group_table({"a": 1, "b": 2}, games(("a", "b", 4, 2)))
    with pytest.raises(FormatError, match="cannot take 3 qualifiers from 2"):
        group_qualifiers([table], 3)
    uneven = [group_table({k: i for i, k in enumerate(ks)}, []) for ks in ("abcdef", "gh", "ij")]
    with pytest.raises(FormatError, match="only 1 groups have a player in place 4"):
        group_qualifiers(uneven, 9)
