"""Group stages: drawing groups from seeding pots, group tables on TP%, and qualifiers.

Entrants come in seed order (best first). Pot 1 is the first `groups` entrants, pot 2 the next
`groups`, and so on; every group gets one entrant from each pot (the last pot may be short, so
group sizes differ by at most one). Within that frame the draw keeps players of one country in
different groups wherever the pots allow it.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Generic, TypeVar

from .errors import FormatError, gettext_noop

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class GroupEntrant(Generic[K]):
    """An entrant for a group draw: the caller's key and a country (None: no constraint)."""

    key: K
    country: str | None = None


class GroupDrawMethod(StrEnum):
    #: Pot 1 goes to groups A, B, C, ..., pot 2 back from the last group to A, and so on, so the
    #: best of pot 1 meets the weakest of pot 2. Deterministic apart from country moves.
    SNAKE = "snake"
    #: Each pot is drawn at random into the groups (reproducible with the draw seed).
    POTS = "pots"


def _clashes(members: Iterable[str | None]) -> int:
    """Same-country pairs in one group."""
    counts = Counter(c for c in members if c is not None)
    return sum(k * (k - 1) // 2 for k in counts.values())


def group_draw(
    entrants: Sequence[GroupEntrant[K]],
    groups: int,
    *,
    method: GroupDrawMethod = GroupDrawMethod.SNAKE,
    draw_seed: int = 0,
) -> tuple[tuple[K, ...], ...]:
    """Draw seeded entrants into `groups` groups; returns each group's keys in pot order.

    Each pot is placed as a whole: its members go to different groups, each member to its
    preferred group (by snake order, or by the random draw) unless that would put two players of
    one country together and another assignment of this pot avoids it. Clashing members are
    re-seated by augmenting paths (a maximum bipartite matching on clash-free member/group
    pairs), so a clash is only accepted when no reshuffle of the pot avoids it, given the pots
    already placed; such members go where they clash least. A final pass swaps members of one
    pot between groups while that lowers the number of same-country pairs. Countries with more
    players than there are groups must share groups: that is the "where possible".
    """
    count = len(entrants)
    if groups < 1:
        raise FormatError(
            gettext_noop("the number of groups must be at least 1 (got %(groups)s)"), groups=groups
        )
    if count < 2 * groups:
        raise FormatError(
            gettext_noop(
                "cannot draw %(count)s entrants into %(groups)s groups: "
                "every group needs at least 2"
            ),
            count=count,
            groups=groups,
        )
    if len({e.key for e in entrants}) != count:
        raise FormatError(gettext_noop("an entrant appears twice in the group draw"))
    rng = random.Random(draw_seed)
    members: list[list[GroupEntrant[K]]] = [[] for _ in range(groups)]
    pots = [list(entrants[i : i + groups]) for i in range(0, count, groups)]
    placed: list[list[int]] = []  # per pot: group of each member
    for pot_number, pot in enumerate(pots):
        if method is GroupDrawMethod.SNAKE:
            order = list(range(groups)) if pot_number % 2 == 0 else list(range(groups))[::-1]
        elif method is GroupDrawMethod.POTS:
            order = list(range(groups))
            rng.shuffle(order)
        else:
            raise ValueError(f"unknown group draw method {method!r}")
        placed.append(_place_pot(pot, order, members))
        for entrant, group in zip(pot, placed[-1], strict=True):
            members[group].append(entrant)
    _improve(pots, placed, members)
    return tuple(tuple(e.key for e in group) for group in members)


def _place_pot(
    pot: Sequence[GroupEntrant[K]],
    order: Sequence[int],
    members: Sequence[Sequence[GroupEntrant[K]]],
) -> list[int]:
    """Groups for one pot's members; member j's preferred group is order[j].

    Members whose preferred group holds no compatriot take it. Each other member then takes the
    shortest chain of moves (breadth-first augmenting path) that frees a clash-free group for
    it, moving pot-mates to groups near their own place in the order: with the snake this is
    usually one swap with a neighbouring seed, not a reshuffle of the whole pot.
    """
    groups = len(order)
    taken = [{e.country for e in group if e.country is not None} for group in members]

    cache: dict[int, list[int]] = {}

    def preferences(j: int) -> list[int]:
        # Own group first, then the groups of pot-mates next to j in the order, outwards.
        if j not in cache:
            cache[j] = [order[i] for i in sorted(range(groups), key=lambda i: (abs(i - j), i))]
        return cache[j]

    def fits(j: int, group: int) -> bool:
        return pot[j].country is None or pot[j].country not in taken[group]

    owner: dict[int, int] = {}  # group -> member of this pot
    waiting = []
    for j in range(len(pot)):
        if fits(j, order[j]):
            owner[order[j]] = j
        else:
            waiting.append(j)
    leftover = [j for j in waiting if not _augment(j, owner, preferences, fits)]
    for j in leftover:
        # No reshuffle of this pot avoids a clash for j: go where it clashes least.
        country = pot[j].country
        free = [g for g in preferences(j) if g not in owner]
        group = min(free, key=lambda g: sum(e.country == country for e in members[g]))
        owner[group] = j
    assignment = {j: g for g, j in owner.items()}
    return [assignment[j] for j in range(len(pot))]


def _augment(
    j: int,
    owner: dict[int, int],
    preferences: Callable[[int], list[int]],
    fits: Callable[[int, int], bool],
) -> bool:
    """Seat member j by the shortest chain of moves ending in a free group (Kuhn/BFS)."""
    parent: dict[int, int | None] = {}
    queue: deque[int] = deque()
    for group in preferences(j):
        if fits(j, group):
            parent[group] = None
            queue.append(group)
    while queue:
        group = queue.popleft()
        if group not in owner:
            path = [group]
            while (previous := parent[path[-1]]) is not None:
                path.append(previous)
            path.reverse()  # path[0] is j's new group; each owner moves one step along
            movers = [j] + [owner[g] for g in path[:-1]]
            for mover, target in zip(movers, path, strict=True):
                owner[target] = mover
            return True
        occupant = owner[group]
        for nxt in preferences(occupant):
            if nxt not in parent and fits(occupant, nxt):
                parent[nxt] = group
                queue.append(nxt)
    return False


def _improve(
    pots: Sequence[Sequence[GroupEntrant[K]]],
    placed: list[list[int]],
    members: list[list[GroupEntrant[K]]],
) -> None:
    """Swap members of one pot between groups while that removes same-country pairs."""

    def cost(group: int) -> int:
        return _clashes(e.country for e in members[group])

    improved = True
    while improved and sum(cost(g) for g in range(len(members))):
        improved = False
        for pot, groups_of in zip(pots, placed, strict=True):
            for i in range(len(pot)):
                if cost(groups_of[i]) == 0:
                    continue
                for j in range(len(pot)):
                    gi, gj = groups_of[i], groups_of[j]
                    if gi == gj or pot[i].country == pot[j].country:
                        continue
                    before = cost(gi) + cost(gj)
                    _swap(members, gi, gj, pot[i], pot[j])
                    if cost(gi) + cost(gj) < before:
                        groups_of[i], groups_of[j] = gj, gi
                        improved = True
                        break
                    _swap(members, gi, gj, pot[j], pot[i])


def _swap(
    members: list[list[GroupEntrant[K]]], gi: int, gj: int, a: GroupEntrant[K], b: GroupEntrant[K]
) -> None:
    """Put b where a was (in group gi) and a where b was (in group gj), keeping pot order."""
    ia, ib = members[gi].index(a), members[gj].index(b)
    members[gi][ia], members[gj][ib] = b, a


# --- Group tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame(Generic[K]):
    """One game's TPs for a table: (a, tps_a) against (b, tps_b), usually sharing 20."""

    a: K
    b: K
    tps_a: Decimal
    tps_b: Decimal


class TieBreak(StrEnum):
    """What put a table row below the one above it, in the order they are applied."""

    TP_PERCENT = "tp_percent"
    HEAD_TO_HEAD = "head_to_head"  # TP% in the games among the players level on TP%
    TOTAL_TPS = "total_tps"
    SEED = "seed"


@dataclass(frozen=True)
class TableRow(Generic[K]):
    """One line of a group table. `tp_percent` is rounded to 0.01 for display; the ranking uses
    the exact ratio. `separated_by` is the criterion that placed this row below the previous
    one (None on the first row)."""

    key: K
    place: int
    seed: int
    games: int
    tps: Decimal
    tps_available: Decimal
    tp_percent: Decimal
    separated_by: TieBreak | None

    @property
    def tp_ratio(self) -> Fraction:
        return _ratio(self.tps, self.tps_available)


def _ratio(won: Decimal, available: Decimal) -> Fraction:
    # A player with no games yet has no TP% to speak of; 0 puts them after anyone who has TPs.
    return Fraction(won) / Fraction(available) if available else Fraction(0)


def _percent(ratio: Fraction) -> Decimal:
    value = Decimal(ratio.numerator * 100) / Decimal(ratio.denominator)
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def group_table(
    entrants: Mapping[K, int], games: Iterable[PlayedGame[K]]
) -> tuple[TableRow[K], ...]:
    """Rank a group on TP%: TPs won ÷ TPs available (the TPs of the games played).

    `entrants` maps each key to its seed (1 = best; used only as the last tie-break). Ties are
    broken by, in order: TP%; head-to-head TP% (TPs won ÷ available in the games among just the
    players level on TP%, so it is fair even if they played each other unequally often); total
    TPs (level TP% with more TPs means more games completed, e.g. after a withdrawal); seed.
    Head-to-head is applied once to the whole level set, not recomputed for sub-ties.
    """
    won = {k: Decimal("0.0") for k in entrants}
    available = {k: Decimal("0.0") for k in entrants}
    played = dict.fromkeys(entrants, 0)
    game_list = list(games)
    for game in game_list:
        if game.a not in entrants or game.b not in entrants or game.a == game.b:
            raise ValueError(f"game {game!r} is not between two players of this group")
        for key, tps in ((game.a, game.tps_a), (game.b, game.tps_b)):
            won[key] += tps
            available[key] += game.tps_a + game.tps_b
            played[key] += 1
    ratio = {k: _ratio(won[k], available[k]) for k in entrants}

    level: dict[Fraction, set[K]] = {}
    for key in entrants:
        level.setdefault(ratio[key], set()).add(key)
    h2h_won: dict[K, Decimal] = dict.fromkeys(entrants, Decimal(0))
    h2h_available: dict[K, Decimal] = dict.fromkeys(entrants, Decimal(0))
    for game in game_list:
        if ratio[game.a] == ratio[game.b]:
            for key, tps in ((game.a, game.tps_a), (game.b, game.tps_b)):
                h2h_won[key] += tps
                h2h_available[key] += game.tps_a + game.tps_b

    def sort_key(key: K) -> tuple[Fraction, Fraction, Decimal, int]:
        # Negated so that a plain ascending sort puts the best first.
        return (-ratio[key], -_ratio(h2h_won[key], h2h_available[key]), -won[key], entrants[key])

    ranked = sorted(entrants, key=sort_key)
    rows = []
    previous: tuple[Fraction, Fraction, Decimal, int] | None = None
    for place, key in enumerate(ranked, start=1):
        current = sort_key(key)
        separated = None
        if previous is not None:
            criterion = next(
                i for i, (a, b) in enumerate(zip(previous, current, strict=True)) if a != b
            )
            separated = list(TieBreak)[criterion]
        previous = current
        rows.append(
            TableRow(
                key=key,
                place=place,
                seed=entrants[key],
                games=played[key],
                tps=won[key],
                tps_available=available[key],
                tp_percent=_percent(ratio[key]),
                separated_by=separated,
            )
        )
    return tuple(rows)


@dataclass(frozen=True)
class Qualifier(Generic[K]):
    """A player going through from the groups. `group` indexes the tables given; `best_placed`
    marks those who came in as one of the best (k+1)-th placed rather than by place alone."""

    key: K
    group: int
    place: int
    tp_percent: Decimal
    seed: int
    best_placed: bool


def group_qualifiers(
    tables: Sequence[Sequence[TableRow[K]]], target: int
) -> tuple[Qualifier[K], ...]:
    """The top k of every group plus the best (k+1)-th placed, `target` players in all.

    k = target // number of groups. The (k+1)-th placed of different groups are compared on TP%
    (fair across groups of different sizes), then seed. The result is ordered by place, then
    TP%, then seed (all group winners first), which is a sensible seeding for a main draw.
    """
    total = sum(len(t) for t in tables)
    if not tables:
        raise FormatError(gettext_noop("there are no groups to qualify from"))
    if not 1 <= target <= total:
        raise FormatError(
            gettext_noop("cannot take %(target)s qualifiers from %(total)s players in groups"),
            target=target,
            total=total,
        )
    k = target // len(tables)
    chosen: list[tuple[int, TableRow[K], bool]] = [
        (g, row, False) for g, table in enumerate(tables) for row in table if row.place <= k
    ]
    extra = target - len(chosen)
    runners = sorted(
        ((g, row) for g, table in enumerate(tables) for row in table if row.place == k + 1),
        key=lambda item: (-item[1].tp_ratio, item[1].seed),
    )
    if extra > len(runners):
        raise FormatError(
            gettext_noop(
                "cannot take %(target)s qualifiers: the top %(top)s of each group give "
                "%(chosen)s, and only %(runners)s groups have a player in place %(place)s"
            ),
            target=target,
            top=k,
            chosen=len(chosen),
            runners=len(runners),
            place=k + 1,
        )
    chosen += [(g, row, True) for g, row in runners[:extra]]
    chosen.sort(key=lambda item: (item[1].place, -item[1].tp_ratio, item[1].seed))
    return tuple(
        Qualifier(row.key, g, row.place, row.tp_percent, row.seed, best) for g, row, best in chosen
    )
