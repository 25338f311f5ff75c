"""Round robin by Berger tables (single and double), as in the FIDE Handbook (C.05 Annex 1).

Entrants are given in seed order and take Berger numbers 1..n. For odd n a bye is number n + 1:
whoever is paired with it rests that round.

Convention for the order within a pairing: the first-named player is the Berger table's
"white". Tantrix has no white or black (players choose tile colours), so this module gives the
order no meaning of its own; an event may use it, for instance, for who chooses a colour first.
The table alternates it fairly: every player is first-named in about half their games, and in a
double round robin the second cycle repeats the first with the order reversed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import FormatError, gettext_noop

T = TypeVar("T")


def berger_table(players: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The Berger table for an even number of players: rounds of (first, second) numbers.

    Round 1 is 1–n, 2–(n−1), ..., (n/2)–(n/2+1). Each next round adds n/2 to every number
    other than n (counting 1..n−1 cyclically), and player n changes sides. For 6 this gives
    the published table: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1.
    """
    if players < 2 or players % 2:
        raise ValueError(f"a Berger table needs an even number ≥ 2 (got {players})")
    n = players
    shift = n // 2

    def move(x: int) -> int:
        return x if x == n else (x - 1 + shift) % (n - 1) + 1

    current = [(i, n + 1 - i) for i in range(1, n // 2 + 1)]
    table = [tuple(current)]
    for _ in range(n - 2):
        nxt = []
        for a, b in current:
            a, b = move(a), move(b)
            # Player n is always on board 1; swapping sides each round balances its order.
            nxt.append((b, a) if n in (a, b) else (a, b))
        current = nxt
        table.append(tuple(current))
    return tuple(table)


@dataclass(frozen=True)
class RoundRobinRound(Generic[T]):
    """One round: its number (from 1), the pairings (first-named, second-named), and who rests."""

    number: int
    pairings: tuple[tuple[T, T], ...]
    bye: T | None = None


def round_robin(entrants: Sequence[T], *, double: bool = False) -> tuple[RoundRobinRound[T], ...]:
    """All rounds of a (double) round robin among `entrants` (hashable keys, in seed order).

    Single: n − 1 rounds for even n, n rounds for odd n (one rests each round). Double: the
    same again with every pairing's order reversed.
    """
    if len(entrants) < 2:
        raise FormatError(
            gettext_noop("a round robin needs at least 2 players (got %(players)s)"),
            players=len(entrants),
        )
    if len(set(entrants)) != len(entrants):
        raise FormatError(gettext_noop("a player appears twice in the round robin"))
    size = len(entrants) + len(entrants) % 2
    bye_number = size if size != len(entrants) else None
    rounds: list[RoundRobinRound[T]] = []
    cycles = (False, True) if double else (False,)
    for reverse in cycles:
        for table_round in berger_table(size):
            pairings = []
            resting = None
            for a, b in table_round:
                if bye_number in (a, b):
                    resting = entrants[(b if a == bye_number else a) - 1]
                    continue
                first, second = entrants[a - 1], entrants[b - 1]
                pairings.append((second, first) if reverse else (first, second))
            rounds.append(RoundRobinRound(len(rounds) + 1, tuple(pairings), resting))
    return tuple(rounds)
