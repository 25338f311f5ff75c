"""Every entrant's chance to reach each round of a knockout, and to win it.

Exact, not sampled: a knockout's future is a tree, so the chance that entrant `e` wins match
`m` is the chance that `e` reaches `m` times the chance that `e` beats whoever comes up from the
other side, summed over who that might be. Working up the bracket round by round costs one
chance per pair of entrants that could still meet (about n²/2 for n entrants: 8,000 for 128),
and it gives exactly what a simulation of the same bracket converges to, with no sampling error
(a test compares the two). Played results count as played: a decided match sends its winner on
with certainty, an unfinished one with its chance from the games played so far.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)  # an entrant
M = TypeVar("M", bound=Hashable)  # a match


@dataclass(frozen=True)
class KnockoutMatch(Generic[K, M]):
    """A bracket slot as it stands.

    `sides`: the entrants placed in it (None: not known yet, or nobody: a bye); `next`: the
    match its winner goes to and on which side (0 or 1); `decided`: over, with `winner` (None
    with `decided`: void, nobody goes on); `chance_a`: for an unfinished match with both sides
    known and games played, side A's chance from where it stands (None: from the ratings)."""

    key: M
    round: int
    sides: tuple[K | None, K | None]
    next: tuple[M, int] | None = None
    decided: bool = False
    winner: K | None = None
    chance_a: float | None = None


@dataclass(frozen=True)
class KnockoutForecast(Generic[K, M]):
    """`reach[e][r]`: the chance that entrant e plays in round r; `win[e]`: the chance that e
    wins the final; `matches[m]`: each side's chance in a match whose two sides are known."""

    rounds: tuple[int, ...]
    reach: Mapping[K, Mapping[int, float]]
    win: Mapping[K, float]
    matches: Mapping[M, tuple[float, float]]


def knockout_forecast(
    matches: Sequence[KnockoutMatch[K, M]], chance: Callable[[K, K], float]
) -> KnockoutForecast[K, M]:
    """Forecast a bracket; `chance(a, b)` is a's chance to beat b in a match of this event."""
    feeders: dict[tuple[M, int], M] = {}
    for match in matches:
        if match.next is not None:
            feeders[match.next] = match.key
    ordered = sorted(matches, key=lambda m: m.round)
    winners: dict[M, dict[K, float]] = {}
    reach: dict[K, dict[int, float]] = {}
    shown: dict[M, tuple[float, float]] = {}
    for match in ordered:
        sides: list[dict[K, float]] = []
        for side, entrant in enumerate(match.sides):
            if entrant is not None:
                sides.append({entrant: 1.0})
            else:
                feeder = feeders.get((match.key, side))
                sides.append(winners.get(feeder, {}) if feeder is not None else {})
        for dist in sides:
            for entrant, p in dist.items():
                at = reach.setdefault(entrant, {})
                at[match.round] = at.get(match.round, 0.0) + p
        winners[match.key] = _winner(match, sides[0], sides[1], chance)
        a, b = match.sides
        if not match.decided and a is not None and b is not None:
            shown[match.key] = (winners[match.key].get(a, 0.0), winners[match.key].get(b, 0.0))
    last = max((m.round for m in matches), default=0)
    win: dict[K, float] = {}
    for match in ordered:
        if match.round == last and match.next is None:
            for entrant, p in winners[match.key].items():
                win[entrant] = win.get(entrant, 0.0) + p
    rounds = tuple(sorted({m.round for m in matches}))
    return KnockoutForecast(rounds=rounds, reach=reach, win=win, matches=shown)


def _winner(
    match: KnockoutMatch[K, M],
    side_a: dict[K, float],
    side_b: dict[K, float],
    chance: Callable[[K, K], float],
) -> dict[K, float]:
    if match.decided:
        return {match.winner: 1.0} if match.winner is not None else {}
    a, b = match.sides
    if match.chance_a is not None and a is not None and b is not None:
        return {a: match.chance_a, b: 1.0 - match.chance_a}
    # Nobody on a side (a void feeder, a bye): whoever is on the other side goes on.
    nobody_a = max(0.0, 1.0 - sum(side_a.values()))
    nobody_b = max(0.0, 1.0 - sum(side_b.values()))
    out: dict[K, float] = {}
    for x, px in side_a.items():
        beats = sum(py * chance(x, y) for y, py in side_b.items())
        out[x] = px * (beats + nobody_b)
    for y, py in side_b.items():
        beats = sum(px * (1.0 - chance(x, y)) for x, px in side_a.items())
        out[y] = out.get(y, 0.0) + py * (beats + nobody_a)
    return out
