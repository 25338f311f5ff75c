"""Swiss pairing: score groups, no rematches, fair byes, determinism."""

import itertools
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import FormatError, SwissPlayer, game_tps, swiss_pairings


def players(scores):
    return [SwissPlayer(key=i + 1, score=s, seed=i + 1) for i, s in enumerate(scores)]


def test_first_round_top_half_meets_bottom_half():
    result = swiss_pairings(players([0] * 8), round_no=1)
    assert result.pairings == ((1, 5), (2, 6), (3, 7), (4, 8)) and result.bye is None


def test_score_groups_pair_inside_and_float_down():
    # 1-3 on 2 points: 1 v 2, and 3 floats down to the top of the 1-point group (4). The rest
    # of that group, 5-7, is odd: 5 v 6 (top half v bottom half), and 7 floats down to 8.
    result = swiss_pairings(players([2, 2, 2, 1, 1, 1, 1, 0]))
    assert result.pairings == ((1, 2), (3, 4), (5, 6), (7, 8))
    # An even group of six on 1 point: 1 v 4, 2 v 5, 3 v 6.
    result = swiss_pairings(players([1] * 6 + [0] * 2))
    assert result.pairings == ((1, 4), (2, 5), (3, 6), (7, 8))


def test_a_rematch_moves_to_the_next_in_the_bottom_half():
    result = swiss_pairings(players([0] * 8), played=[(1, 5)])
    assert result.pairings == ((1, 6), (2, 5), (3, 7), (4, 8))


def test_tp_scores_pair_neighbours_in_the_standings():
    scores = [Decimal(s) for s in ("58.2", "51.0", "49.9", "47.3", "40.0", "33.1")]
    assert swiss_pairings(players(scores)).pairings == ((1, 2), (3, 4), (5, 6))
    result = swiss_pairings(players(scores), played=[(1, 2), (3, 4)])
    assert result.pairings == ((1, 3), (2, 4), (5, 6))


def test_bye_goes_to_the_lowest_ranked_without_one():
    result = swiss_pairings(players([3, 2, 2, 1, 0]), byes=[5])
    assert result.bye == 4
    # When everyone has had one, the lowest-ranked among those with the fewest.
    result = swiss_pairings(players([3, 2, 1]), byes=[1, 2, 3, 3])
    assert result.bye == 2


def test_bye_skips_a_player_whose_sitting_out_forces_a_rematch():
    # 5 sits out → 1..4 must pair, but 4 has met 1, 2 and 3; so 4 takes the bye instead.
    result = swiss_pairings(players([4, 3, 2, 1, 0]), played=[(4, 1), (4, 2), (4, 3)])
    assert result.bye == 4
    assert {frozenset(p) for p in result.pairings} & {frozenset(p) for p in [(4, 1)]} == set()


def test_impossible_round_is_a_user_facing_error():
    everyone_met = list(itertools.combinations(range(1, 5), 2))
    with pytest.raises(FormatError, match="cannot pair round 4: every remaining pairing"):
        swiss_pairings(players([3, 2, 1, 0]), played=everyone_met, round_no=4)
    with pytest.raises(FormatError, match="at least 2 players"):
        swiss_pairings(players([0]))
    with pytest.raises(FormatError, match="twice"):
        swiss_pairings([SwissPlayer(1, 0, 1), SwissPlayer(1, 0, 2)])
    with pytest.raises(FormatError, match="share a seed"):
        swiss_pairings([SwissPlayer(1, 0, 1), SwissPlayer(2, 0, 1)])
    with pytest.raises(FormatError, match="whichever player who has not had a bye sits out"):
        swiss_pairings(players([0, 0, 0]), played=[(1, 2), (1, 3), (2, 3)], round_no=3)


def simulate(count, rounds, rng, *, tps):
    """Play `rounds` Swiss rounds with random results; return all pairings and byes."""
    scores = dict.fromkeys(range(1, count + 1), Decimal(0))
    played, byes = [], []
    for round_no in range(1, rounds + 1):
        standings = [SwissPlayer(k, scores[k], k) for k in scores]
        result = swiss_pairings(standings, played=played, byes=byes, round_no=round_no)
        assert len(result.pairings) == count // 2
        for a, b in result.pairings:
            if tps:
                tps_a, tps_b = game_tps(rng.randint(0, 25), rng.randint(0, 25))
            else:
                tps_a, tps_b = rng.choice([(1, 0), (0, 1), (Decimal("0.5"), Decimal("0.5"))])
            scores[a] += tps_a
            scores[b] += tps_b
        if result.bye is not None:
            byes.append(result.bye)
            scores[result.bye] += 1 if not tps else Decimal(10)
        played += result.pairings
    return played, byes


@pytest.mark.parametrize("tps", [False, True], ids=["game-points", "tps"])
@pytest.mark.parametrize("count", [40, 39])
def test_seven_rounds_of_40_without_a_rematch(count, tps):
    for seed in range(5):
        played, byes = simulate(count, 7, random.Random(seed), tps=tps)
        assert len({frozenset(p) for p in played}) == len(played)
        assert len(set(byes)) == len(byes) == (7 if count % 2 else 0)


def test_deterministic():
    scores = [3, 3, 2, 2, 2, 1, 1, 0, 0]
    played = [(1, 4), (2, 3), (5, 6)]
    first = swiss_pairings(players(scores), played=played, byes=[9])
    assert all(first == swiss_pairings(players(scores), played=played, byes=[9]) for _ in range(5))
    # Input order does not matter: the standings are sorted by score, then seed.
    assert first == swiss_pairings(players(scores)[::-1], played=played, byes=[9])


def _rematch_free(keys, forbidden):
    if not keys:
        return True
    first, rest = keys[0], keys[1:]
    return any(
        frozenset((first, other)) not in forbidden
        and _rematch_free([k for k in rest if k != other], forbidden)
        for other in rest
    )


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=9),
    data=st.data(),
)
def test_never_a_rematch_while_one_is_avoidable(count, data):
    keys = list(range(1, count + 1))
    all_pairs = list(itertools.combinations(keys, 2))
    played = data.draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=len(all_pairs)))
    byes = data.draw(st.lists(st.sampled_from(keys), max_size=3))
    scores = data.draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
    standings = players(scores)
    forbidden = {frozenset(p) for p in played}
    ranked = [p.key for p in sorted(standings, key=lambda p: (-p.score, p.seed))]
    if count % 2:
        fewest = min(byes.count(k) for k in keys)
        sitters = [k for k in reversed(ranked) if byes.count(k) == fewest]
        feasible = [s for s in sitters if _rematch_free([k for k in ranked if k != s], forbidden)]
        expected_bye = feasible[0] if feasible else None
    else:
        feasible = [None] if _rematch_free(ranked, forbidden) else []
        expected_bye = None
    if not feasible:
        with pytest.raises(FormatError, match="rematch"):
            swiss_pairings(standings, played=played, byes=byes)
        return
    result = swiss_pairings(standings, played=played, byes=byes)
    assert result.bye == expected_bye
    assert not {frozenset(p) for p in result.pairings} & forbidden
    seated = [k for p in result.pairings for k in p] + ([result.bye] if result.bye else [])
    assert sorted(seated) == keys


@settings(max_examples=100, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=9),
    data=st.data(),
)
def test_blossom_fallback_agrees_with_brute_force(count, data):
    # search_limit=1 sends every round straight to the blossom algorithm.
    keys = list(range(1, count + 1))
    all_pairs = list(itertools.combinations(keys, 2))
    played = data.draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=len(all_pairs)))
    forbidden = {frozenset(p) for p in played}
    standings = players([0] * count)
    feasible = (
        any(_rematch_free([k for k in keys if k != s], forbidden) for s in keys)
        if count % 2
        else _rematch_free(keys, forbidden)
    )
    if not feasible:
        with pytest.raises(FormatError, match="rematch"):
            swiss_pairings(standings, played=played, search_limit=1)
        return
    result = swiss_pairings(standings, played=played, search_limit=1)
    assert not {frozenset(p) for p in result.pairings} & forbidden
    seated = [k for p in result.pairings for k in p] + ([result.bye] if result.bye else [])
    assert sorted(seated) == keys


def _max_matching_size(vertices, edges):
    if not vertices:
        return 0
    v, rest = vertices[0], vertices[1:]
    best = _max_matching_size(rest, edges)  # v unmatched
    for w in rest:
        if frozenset((v, w)) in edges:
            best = max(best, 1 + _max_matching_size([x for x in rest if x != w], edges))
    return best


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=10),
    data=st.data(),
)
def test_maximum_matching_is_maximum(count, data):
    from tournaments.formats.swiss import maximum_matching

    all_pairs = list(itertools.combinations(range(count), 2))
    edges = data.draw(st.lists(st.sampled_from(all_pairs), unique=True)) if all_pairs else []
    adjacency = [[] for _ in range(count)]
    for a, b in edges:
        adjacency[a].append(b)
        adjacency[b].append(a)
    mate = maximum_matching(adjacency)
    edge_set = {frozenset(e) for e in edges}
    for v, m in enumerate(mate):
        if m is not None:
            assert mate[m] == v and frozenset((v, m)) in edge_set
    matched = sum(m is not None for m in mate) // 2
    assert matched == _max_matching_size(list(range(count)), edge_set)


def test_maximum_matching_through_a_blossom():
    from tournaments.formats.swiss import maximum_matching

    # Greedy takes 0-1 and 2-3 (then 4 and 5 are stuck, next to the odd cycle 1-2-3); the
    # only perfect matching, 0-5, 1-2, 3-4, needs the augmenting path 4-3-2-1-0-5.
    adjacency = [[1, 5], [0, 2, 3], [1, 3], [2, 1, 4], [3], [0]]
    mate = maximum_matching(adjacency)
    assert mate == [5, 2, 1, 4, 3, 0]
