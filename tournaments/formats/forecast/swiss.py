"""Every entrant's chance to win a Swiss event (and to finish in its top places), by simulation.

A Swiss round's pairings depend on the results before it, so the rest of the event is played
out at random many times: the unfinished matches of the round in play from where they stand,
then each remaining round paired as the event would pair it and played game by game
(`match.sample_match`). Tantrix Swiss ranks on total TPs (then seed, as the standings do).

Pairing is the project's own rule (`tournaments.formats.swiss`): when every score differs (the
usual case with TPs to a tenth) it pairs each player, from the top, with the best-ranked player
below who is not a rematch, which is what `swiss_pairings` does for score groups of one; a
field with equal scores, or one this greedy pass cannot pair, goes to `swiss_pairings` itself
(a test checks that the two agree wherever the fast pass answers).

Runs are added in batches until the favourite's chance is known to ±1 percentage point (95 %
confidence: 1.96·√(p(1 − p)/runs) ≤ 0.01), at most `MAX_RUNS`; the random generator is seeded,
so the same event gives the same forecast.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Generic, TypeVar

from ..errors import FormatError
from ..swiss import SwissPlayer, swiss_pairings
from .game import GameModel
from .match import MatchFormat, MatchProgress, OutcomeTable, sample_match

K = TypeVar("K", bound=Hashable)

BATCH_RUNS = 1000
MAX_RUNS = 20_000
PRECISION = 0.01  # ±1 percentage point on the favourite, at 95 % confidence


@dataclass(frozen=True)
class SwissEntrant(Generic[K]):
    """An entrant still in play: TPs so far (tenths), seed, and a rating per board (with how
    well each is known)."""

    key: K
    seed: int
    tps: int
    boards: tuple[float, ...]
    byes: int = 0
    errors: tuple[float, ...] = ()  # each board's rating error (GameModel.rating_error); none: 0


@dataclass(frozen=True)
class SwissOpenMatch(Generic[K]):
    """A match of the round in play that is not over yet."""

    a: K
    b: K
    progress: MatchProgress | None = None


@dataclass(frozen=True)
class SwissForecast(Generic[K]):
    win: Mapping[K, float]
    top: Mapping[K, float]  # finishing in the top `places`
    places: int
    runs: int


def swiss_forecast(
    entrants: Sequence[SwissEntrant[K]],
    *,
    model: GameModel,
    fmt: MatchFormat,
    rounds_left: int,
    played: Sequence[tuple[K, K]] = (),
    open_matches: Sequence[SwissOpenMatch[K]] = (),
    bye_tps: int = 0,
    places: int = 1,
    seed: int = 0,
    max_runs: int = MAX_RUNS,
    outcomes: OutcomeTable | None = None,
) -> SwissForecast[K]:
    """Simulate the rest of the event: the open matches of the round in play, then
    `rounds_left` more rounds. `bye_tps`: what a bye earns, in tenths of a TP; `outcomes`: a
    warm table for this model and format (one-board matches), to share between forecasts."""
    n = len(entrants)
    if n == 0:
        return SwissForecast({}, {}, places, 0)
    index = {e.key: i for i, e in enumerate(entrants)}
    seeds = [e.seed for e in entrants]
    base_tps = [e.tps for e in entrants]
    base_byes = [e.byes for e in entrants]
    base_forbidden = [0] * n
    for a, b in played:
        if a in index and b in index and a != b:
            base_forbidden[index[a]] |= 1 << index[b]
            base_forbidden[index[b]] |= 1 << index[a]
    boards = [e.boards for e in entrants]
    errors = [e.errors or (0.0,) * len(e.boards) for e in entrants]
    mus: dict[tuple[int, int], list[float]] = {}
    gaps: dict[tuple[int, int], float] = {}

    def gap(i: int, j: int) -> float:
        found = gaps.get((i, j))
        if found is None:
            found = gaps[(i, j)] = model.effective_gap(
                boards[i][0] - boards[j][0], errors[i][0], errors[j][0]
            )
        return found

    # One-board matches are drawn whole from a table; team matches are played game by game.
    table = (
        outcomes if outcomes is not None else OutcomeTable(model, fmt) if fmt.boards == 1 else None
    )

    def mu(i: int, j: int) -> list[float]:
        found = mus.get((i, j))
        if found is None:
            found = [
                model.mu(model.effective_gap(x - y, ex, ey))
                for x, y, ex, ey in zip(boards[i], boards[j], errors[i], errors[j], strict=True)
            ]
            mus[(i, j)] = found
        return found

    opening = [(index[m.a], index[m.b], m.progress) for m in open_matches]
    for i, j, _ in opening:
        base_forbidden[i] |= 1 << j
        base_forbidden[j] |= 1 << i
    rng = random.Random(seed)
    wins = [0] * n
    tops = [0] * n
    runs = 0
    while runs < max_runs:
        for _ in range(BATCH_RUNS):
            tps = base_tps.copy()
            forbidden = base_forbidden.copy()
            byes = base_byes.copy()
            for i, j, progress in opening:
                gained_a, gained_b = sample_match(rng, model, fmt, mu(i, j), progress)
                tps[i] += gained_a
                tps[j] += gained_b
            for _round in range(rounds_left):
                pairs, bye = _pair(entrants, tps, seeds, forbidden, byes)
                if bye is not None:
                    tps[bye] += bye_tps
                    byes[bye] += 1
                for i, j in pairs:
                    forbidden[i] |= 1 << j
                    forbidden[j] |= 1 << i
                    if table is not None:
                        gained_a, gained_b = table.sample(rng, gap(i, j))
                    else:
                        gained_a, gained_b = sample_match(rng, model, fmt, mu(i, j))
                    tps[i] += gained_a
                    tps[j] += gained_b
            order = sorted(range(n), key=lambda k: (-tps[k], seeds[k]))
            wins[order[0]] += 1
            for k in order[:places]:
                tops[k] += 1
        runs += BATCH_RUNS
        p = max(wins) / runs
        if 1.96 * sqrt(p * (1 - p) / runs) <= PRECISION:
            break
    keys = [e.key for e in entrants]
    return SwissForecast(
        win={k: wins[i] / runs for i, k in enumerate(keys)},
        top={k: tops[i] / runs for i, k in enumerate(keys)},
        places=places,
        runs=runs,
    )


def _pair(
    entrants: Sequence[SwissEntrant[K]],
    tps: list[int],
    seeds: list[int],
    forbidden: list[int],
    byes: list[int],
) -> tuple[list[tuple[int, int]], int | None]:
    """One round's pairs (indices) and bye, as `swiss_pairings` would pair them."""
    n = len(tps)
    ranked = sorted(range(n), key=lambda k: (-tps[k], seeds[k]))
    # Score groups of one or two: there the greedy pass is what the core does (tested).
    if all(tps[ranked[k]] != tps[ranked[k + 2]] for k in range(n - 2)):
        fast = _greedy(ranked, forbidden, byes)
        if fast is not None:
            return fast
    return _core(entrants, ranked, tps, forbidden, byes)


def _greedy(
    ranked: list[int], forbidden: list[int], byes: list[int]
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Score groups of one: each player from the top meets the best-ranked free player below
    who is not a rematch; with an odd field the bye goes first to the lowest-ranked player among
    those with the fewest byes. None when that leaves someone without an opponent (the core's
    backtracking, or another bye, is then needed)."""
    bye = None
    order = ranked
    if len(ranked) % 2:
        fewest = min(byes[k] for k in ranked)
        bye = next(k for k in reversed(ranked) if byes[k] == fewest)
        order = [k for k in ranked if k != bye]
    free = list(order)
    pairs: list[tuple[int, int]] = []
    while free:
        top = free.pop(0)
        for position, other in enumerate(free):
            if not forbidden[top] >> other & 1:
                pairs.append((top, free.pop(position)))
                break
        else:
            return None
    return pairs, bye


def _core(
    entrants: Sequence[SwissEntrant[K]],
    ranked: list[int],
    tps: list[int],
    forbidden: list[int],
    byes: list[int],
) -> tuple[list[tuple[int, int]], int | None]:
    players = [SwissPlayer(k, tps[k], entrants[k].seed) for k in ranked]
    played = [(i, j) for i in ranked for j in ranked if i < j and forbidden[i] >> j & 1]
    had_bye = [k for k in ranked for _ in range(byes[k])]
    try:
        paired = swiss_pairings(players, played=played, byes=had_bye)
    except FormatError:
        # No rematch-free round exists: the event would need its organiser; the simulation
        # lets the rematch happen (it only moves TPs about).
        paired = swiss_pairings(players, byes=had_bye)
    return list(paired.pairings), paired.bye
