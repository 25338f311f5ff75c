"""Swiss pairing: score groups, no rematches, a fair bye, deterministic.

The score is any plain number. Chess-style events use game points; Tantrix Swiss usually ranks
on total TPs, where almost every player has a score of their own: the score groups are then
single players and the pairing becomes "neighbours in the standings" (1 v 2, 3 v 4, ...),
which is the Tantrix practice.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Generic, NoReturn, TypeVar

from .errors import FormatError, gettext_noop

K = TypeVar("K", bound=Hashable)

Score = int | float | Decimal | Fraction

#: Steps of the preference-ordered search before falling back to the blossom algorithm. A
#: normal round takes about one step per board; the limit only bounds pathological searches.
DEFAULT_SEARCH_LIMIT = 100_000


@dataclass(frozen=True)
class SwissPlayer(Generic[K]):
    """A player in the standings before the round: key, score so far, and starting seed
    (1 = best), which orders players on equal score."""

    key: K
    score: Score
    seed: int


@dataclass(frozen=True)
class SwissRound(Generic[K]):
    """A paired round: (higher-ranked, lower-ranked) per board, top board first, and who has
    the bye (None for an even field)."""

    pairings: tuple[tuple[K, K], ...]
    bye: K | None


def swiss_pairings(
    players: Sequence[SwissPlayer[K]],
    *,
    played: Iterable[tuple[K, K]] = (),
    byes: Iterable[K] = (),
    round_no: int | None = None,
    search_limit: int = DEFAULT_SEARCH_LIMIT,
) -> SwissRound[K]:
    """Pair one Swiss round.

    `players` are the active players (withdrawn players are simply left out); `played` lists
    earlier pairings (either order; pairs with absent players are ignored); `byes` lists who had
    a bye in earlier rounds (once per bye).

    Rules, in order of priority:

    1. No rematches, ever: if no pairing avoids one, a `FormatError` says so.
    2. With an odd field, the bye goes to the lowest-ranked player among those with the fewest
       byes (so: who has not had one yet) whose sitting out still leaves a rematch-free pairing.
    3. Players are ranked by score (high first), then seed. Working down from the top, each
       player is paired inside their score group as in the Dutch system: the top half meets
       the bottom half (1 v 5, 2 v 6, ... in a group of 8). When the ideal opponent is a
       rematch, the next one down the bottom half is tried, then the top half upward, and
       only then does the player float down to the next score group.
    4. Backtracking: if a choice leaves the players below unpairable, the most recent choice
       is revised first, so the top boards keep their ideal pairings whenever possible.
    5. Should that search need more than `search_limit` steps (late rounds of a small,
       played-out field), Edmonds' blossom algorithm decides exactly whether a rematch-free
       pairing exists and returns one, without the preferences of rule 3.

    Deterministic: the same input always gives the same round.
    """
    count = len(players)
    if count < 2:
        _refuse(round_no, "too_few")
    keys = [p.key for p in players]
    if len(set(keys)) != count:
        _refuse(round_no, "twice")
    if len({p.seed for p in players}) != count:
        # Seeds order players on equal score; a shared seed would leave that to input order.
        _refuse(round_no, "shared_seed")
    ranked = sorted(players, key=lambda p: (-p.score, p.seed))
    index = {p.key: i for i, p in enumerate(ranked)}

    # Bitmask of earlier opponents per player: a rematch test is then one shift and one and.
    forbidden = [0] * count
    for a, b in played:
        if a in index and b in index and a != b:
            forbidden[index[a]] |= 1 << index[b]
            forbidden[index[b]] |= 1 << index[a]

    # Score groups are runs of equal scores in the ranking: for each player, the bitmask of
    # ranking indices up to the end of their group.
    group_end = [count] * count
    for i in range(count - 2, -1, -1):
        same = ranked[i].score == ranked[i + 1].score
        group_end[i] = group_end[i + 1] if same else i + 1
    through_group = [(1 << end) - 1 for end in group_end]

    search = _Search(count, forbidden, through_group, search_limit)
    everyone = (1 << count) - 1
    if count % 2 == 0:
        pairs = search.pair(everyone)
        if pairs is None:
            _refuse(round_no, "rematch")
        return _result(ranked, pairs, None)

    bye_count = Counter(b for b in byes if b in index)
    fewest = min(bye_count[k] for k in keys)
    candidates = [i for i in reversed(range(count)) if bye_count[ranked[i].key] == fewest]
    for sitter in candidates:
        pairs = search.pair(everyone & ~(1 << sitter))
        if pairs is not None:
            return _result(ranked, pairs, sitter)
    _refuse(round_no, "no_bye" if fewest == 0 else "fewest_byes", fewest=fewest)


# Why a round cannot be paired, as (numbered round, round without a number): whole sentences,
# so a translation can put the round's number where its language wants it.
_REFUSALS: dict[str, tuple[str, str]] = {
    "too_few": (
        gettext_noop("cannot pair round %(round)s: a Swiss round needs at least 2 players"),
        gettext_noop("cannot pair this round: a Swiss round needs at least 2 players"),
    ),
    "twice": (
        gettext_noop("cannot pair round %(round)s: a player appears twice in the standings"),
        gettext_noop("cannot pair this round: a player appears twice in the standings"),
    ),
    "shared_seed": (
        gettext_noop("cannot pair round %(round)s: two players share a seed"),
        gettext_noop("cannot pair this round: two players share a seed"),
    ),
    "rematch": (
        gettext_noop("cannot pair round %(round)s: every remaining pairing is a rematch"),
        gettext_noop("cannot pair this round: every remaining pairing is a rematch"),
    ),
    "no_bye": (
        gettext_noop(
            "cannot pair round %(round)s: whichever player who has not had a bye sits out, "
            "every remaining pairing includes a rematch"
        ),
        gettext_noop(
            "cannot pair this round: whichever player who has not had a bye sits out, "
            "every remaining pairing includes a rematch"
        ),
    ),
    "fewest_byes": (
        gettext_noop(
            "cannot pair round %(round)s: whichever player with the fewest byes (%(fewest)s) "
            "sits out, every remaining pairing includes a rematch"
        ),
        gettext_noop(
            "cannot pair this round: whichever player with the fewest byes (%(fewest)s) "
            "sits out, every remaining pairing includes a rematch"
        ),
    ),
}


def _refuse(round_no: int | None, why: str, **params: object) -> NoReturn:
    numbered, unnumbered = _REFUSALS[why]
    if round_no is None:
        raise FormatError(unnumbered, **params)
    raise FormatError(numbered, round=round_no, **params)


def _result(
    ranked: Sequence[SwissPlayer[K]], pairs: list[tuple[int, int]], bye: int | None
) -> SwissRound[K]:
    return SwissRound(
        pairings=tuple((ranked[a].key, ranked[b].key) for a, b in pairs),
        bye=ranked[bye].key if bye is not None else None,
    )


class _SearchExhausted(Exception):
    """The preference-ordered search used up its step budget (internal control flow)."""


class _Search:
    """Find a rematch-free pairing of a set of ranked players (a bitmask of ranking indices).

    First a depth-first search in preference order (so the result follows the Dutch rules
    above); if that runs out of `limit` steps, which only happens in late rounds of small,
    heavily played-out fields, Edmonds' blossom algorithm settles whether any rematch-free
    pairing exists and supplies one. Either way the answer to "is there a pairing without a
    rematch?" is exact; only the choice among such pairings falls back to an arbitrary one.
    """

    def __init__(
        self, count: int, forbidden: list[int], through_group: list[int], limit: int
    ) -> None:
        self.count = count
        self.forbidden = forbidden
        self.through_group = through_group
        self.limit = limit
        # A player can only run out of opponents once the set is no bigger than their number
        # of earlier opponents + 1; below that size the dead-end test is worth its cost.
        self.strandable = max((f.bit_count() for f in forbidden), default=0) + 1
        # Sets of players already shown to have no rematch-free pairing. Whether a set can be
        # paired does not depend on how we reached it, so this is shared across bye candidates.
        self.dead: set[int] = set()

    def pair(self, remaining: int) -> list[tuple[int, int]] | None:
        try:
            return self._depth_first(remaining)
        except _SearchExhausted:
            return self._blossom(remaining)

    def candidates(self, top: int, remaining: int) -> Iterator[int]:
        """Opponents for `top` (the highest-ranked unpaired player), most preferred first."""
        rest = remaining & ~(1 << top)
        own_mask = rest & self.through_group[top]
        own = _indices(own_mask)
        # Dutch slide within the score group: `top` heads a group of len(own) + 1 players, so
        # its ideal opponent is the first of the bottom half, own[(len(own) + 1) // 2 - 1].
        # Then on down the bottom half, then back up the top half, then float down (lazily:
        # with TP scores the groups are single players and "below" is everybody else).
        split = (len(own) + 1) // 2 - 1
        yield from own[split:]
        yield from reversed(own[: max(split, 0)])
        below = rest & ~own_mask
        while below:
            low = below & -below
            yield low.bit_length() - 1
            below ^= low

    def stranded(self, remaining: int) -> bool:
        """Whether some player in the set has met everyone else in it (cheap dead-end test).

        Without it, late rounds of small fields can send the search through every ordering of
        the top boards before discovering that one player at the bottom has no opponent left.
        """
        if remaining.bit_count() > self.strandable:
            return False
        rest = remaining
        while rest:
            low = rest & -rest
            if not remaining & ~low & ~self.forbidden[low.bit_length() - 1]:
                return True
            rest ^= low
        return False

    def _depth_first(self, remaining: int) -> list[tuple[int, int]] | None:
        pairs: list[tuple[int, int]] = []
        # Each frame: (set before this choice, its top player, iterator over its opponents).
        stack: list[tuple[int, int, Iterator[int]]] = []
        current = remaining
        steps = 0
        while True:
            if current == 0:
                return pairs
            if current not in self.dead and self.stranded(current):
                self.dead.add(current)
            if current not in self.dead:
                top = (current & -current).bit_length() - 1
                opponents = (
                    q for q in self.candidates(top, current) if not self.forbidden[top] >> q & 1
                )
                stack.append((current, top, opponents))
            elif stack:
                pairs.pop()
            else:
                return None
            # Take the next untried opponent of the deepest open choice, backtracking as needed.
            while stack:
                before, top, opponents = stack[-1]
                opponent = next(opponents, None)
                steps += 1
                if steps > self.limit:
                    raise _SearchExhausted
                if opponent is not None:
                    pairs.append((top, opponent))
                    current = before & ~(1 << top) & ~(1 << opponent)
                    break
                self.dead.add(before)
                stack.pop()
                if stack:
                    pairs.pop()
            else:
                return None

    def _blossom(self, remaining: int) -> list[tuple[int, int]] | None:
        players = [i for i in range(self.count) if remaining >> i & 1]
        local = {p: n for n, p in enumerate(players)}
        allowed = [
            [local[q] for q in players if q != p and not self.forbidden[p] >> q & 1]
            for p in players
        ]
        mate = maximum_matching(allowed)
        if any(m is None for m in mate):
            self.dead.add(remaining)
            return None
        pairs = {
            (min(p, q), max(p, q))
            for p, q in ((players[a], players[m]) for a, m in enumerate(mate) if m is not None)
        }
        return sorted(pairs)


def _indices(mask: int) -> list[int]:
    """Set bits of a mask, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def maximum_matching(adjacency: Sequence[Sequence[int]]) -> list[int | None]:
    """A maximum matching of a general graph (Edmonds' blossom algorithm, O(V³)).

    `adjacency[v]` lists the neighbours of vertex v; returns each vertex's mate or None.
    """
    n = len(adjacency)
    mate: list[int | None] = [None] * n
    # A greedy start leaves the blossom search only the hard cases.
    for v in range(n):
        if mate[v] is None:
            for w in adjacency[v]:
                if mate[w] is None:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] is not None:
            continue
        end, parent = _augmenting_path(root, adjacency, mate)
        while end is not None:
            via = parent[end]
            assert via is not None
            after = mate[via]
            mate[end], mate[via] = via, end
            end = after
    return mate


def _augmenting_path(
    root: int, adjacency: Sequence[Sequence[int]], mate: list[int | None]
) -> tuple[int | None, list[int | None]]:
    """Breadth-first search for an augmenting path from an unmatched root, shrinking blossoms.

    Returns the free vertex the path ends at (or None) and the parent links to walk it back.
    """
    n = len(adjacency)
    used = [False] * n
    parent: list[int | None] = [None] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] is None:
                break
            a = parent[mate[a]]  # type: ignore[index]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]  # type: ignore[index]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            m = mate[v]
            assert m is not None
            blossom[base[v]] = blossom[base[m]] = True
            parent[v] = child
            child = m
            v = parent[m]  # type: ignore[assignment]

    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            to_mate = mate[to]
            if to == root or (to_mate is not None and parent[to_mate] is not None):
                b = common_base(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] is None:
                parent[to] = v
                if to_mate is None:
                    return to, parent
                used[to_mate] = True
                queue.append(to_mate)
    return None, parent
