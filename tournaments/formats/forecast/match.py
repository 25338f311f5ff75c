"""A match's chance from its sides' ratings: summed TPs over its games, extra games when close.

A match is decided on the TPs summed over its games (over every board's games in a team match),
so side A's chance is the chance that the sum of the remaining games' leads, added to the lead
it has, ends above zero. An early finish never changes who wins (a match only ends early when
the trailing side can no longer change the result), so it is left out of the chance; extra
games are played out exactly as the rules say: while the lead is under the margin, one game at
a time, up to the cap; level after the cap (or with nothing left) goes to a ruling, counted as
a coin flip. A level team match goes to tie-breaks that are not modelled: also a coin flip.

With up to `EXACT_GAMES` games to play the sum is exact (a convolution of the games' lead
distributions, in tenths of a TP); with more (long matches, team matches) it is the normal
distribution with the same mean and variance (the central limit theorem over four or more
games; the two agree within a percentage point from four games on, a test holds it).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

from .game import GAME_TENTHS, GRID_STEP, MAX_GAP, Distribution, GameModel, normal_cdf

EXACT_GAMES = 3


@dataclass(frozen=True)
class MatchFormat:
    """What a match of the event is: planned games on each of `boards` boards (1 unless a team
    match), and extra games (singles and pairs only) while the lead is under `extra_margin`
    tenths of a TP, at most `max_extra_games`."""

    games: int
    boards: int = 1
    extra_margin: int = 0
    max_extra_games: int = 0

    def __post_init__(self) -> None:
        if self.games < 1 or self.boards < 1:
            raise ValueError("a match has at least one game on at least one board")
        if self.max_extra_games < 0 or (self.max_extra_games and self.extra_margin <= 0):
            raise ValueError("extra games need a positive margin")

    @property
    def planned(self) -> int:
        return self.games * self.boards


@dataclass(frozen=True)
class MatchProgress:
    """Where an unfinished match stands: side A's lead (tenths of a TP), the planned games
    still to play on each board, and the extra games played so far."""

    lead: int = 0
    games_left: tuple[int, ...] = ()
    extra_games_played: int = 0

    @classmethod
    def fresh(cls, fmt: MatchFormat) -> MatchProgress:
        return cls(0, (fmt.games,) * fmt.boards, 0)

    @classmethod
    def after(cls, fmt: MatchFormat, *, lead: int, games_played: int) -> MatchProgress:
        """A one-board match after `games_played` games (extra games included)."""
        left = max(0, fmt.games - games_played)
        return cls(lead, (left,), max(0, games_played - fmt.games))


def _gaps(boards_a: Sequence[float], boards_b: Sequence[float]) -> list[float]:
    if len(boards_a) != len(boards_b) or not boards_a:
        raise ValueError("both sides need a rating for every board")
    return [a - b for a, b in zip(boards_a, boards_b, strict=True)]


def _convolve(states: dict[int, float], game: Distribution) -> dict[int, float]:
    out: dict[int, float] = {}
    for lead, p in states.items():
        for step, q in game:
            key = lead + step
            out[key] = out.get(key, 0.0) + p * q
    return out


def _clinched(lead: int, planned_left: int, fmt: MatchFormat) -> bool:
    """The published rule (tournaments.formats.matches._clinched), in tenths: the games left
    cannot change the winner."""
    reachable = GAME_TENTHS * planned_left
    if fmt.max_extra_games:
        return abs(lead) - reachable >= fmt.extra_margin
    return abs(lead) > reachable


def _final(states: dict[int, float], game: Distribution) -> float:
    """Side A's chance when one game is left: each lead L wins if the game's lead beats −L."""
    steps = [step for step, _ in game]
    above = [0.0] * (len(game) + 1)  # above[i]: the chance of a lead of steps[i] or more
    for i in range(len(game) - 1, -1, -1):
        above[i] = above[i + 1] + game[i][1]
    won = 0.0
    for lead, p in states.items():
        i = bisect_right(steps, -lead)
        level = game[i - 1][1] if i and steps[i - 1] == -lead else 0.0
        won += p * (above[i] + level / 2)
    return min(1.0, max(0.0, won))


def _moments(game: Distribution) -> tuple[float, float]:
    mean = sum(lead * p for lead, p in game)
    return mean, sum((lead - mean) ** 2 * p for lead, p in game)


def _approximate(
    lead: int, games: list[Distribution], margin: int
) -> tuple[float, dict[int, float]]:
    """(side A's sure mass, the leads under the margin) for a normal sum of the games' leads.

    Leads are even numbers of tenths (a game's lead is 2 · tps_a − 200), so each even value k
    takes the normal's mass in [k − 1, k + 1]."""
    mean, variance = float(lead), 0.0
    for game in games:
        m, v = _moments(game)
        mean, variance = mean + m, variance + v
    sd = sqrt(variance)
    edge = max(margin, 2)  # without extra games, only a level match (lead 0) stays open
    states = {
        k: normal_cdf((k + 1 - mean) / sd) - normal_cdf((k - 1 - mean) / sd)
        for k in range(-edge + 2, edge - 1, 2)
    }
    return 1.0 - normal_cdf((edge - 1 - mean) / sd), states


def match_chance(
    model: GameModel,
    fmt: MatchFormat,
    boards_a: Sequence[float],
    boards_b: Sequence[float],
    progress: MatchProgress | None = None,
) -> float:
    """Side A's chance to win the match: its ratings per board against side B's.

    `boards_a` and `boards_b` hold one rating per board (a single player's, a pair's mean, a
    team's lineup in board order); `progress`: the match so far (None: not started)."""
    gaps = _gaps(boards_a, boards_b)
    progress = progress or MatchProgress.fresh(fmt)
    left = progress.games_left or (0,) * fmt.boards
    if len(left) != fmt.boards:
        raise ValueError("games left are counted per board")
    per_board = [model.distribution(gap) if n else () for gap, n in zip(gaps, left, strict=True)]
    games = [game for game, n in zip(per_board, left, strict=True) for _ in range(n)]
    extras_left = max(0, fmt.max_extra_games - progress.extra_games_played)
    margin = fmt.extra_margin if extras_left else 0
    if progress.lead and _clinched(progress.lead, sum(left), fmt):
        return 1.0 if progress.lead > 0 else 0.0

    won = 0.0
    if len(games) <= EXACT_GAMES:
        states = {progress.lead: 1.0}
        if games and not extras_left:
            # Nothing follows the last game: only whether it ends above zero matters.
            for game in games[:-1]:
                states = _convolve(states, game)
            return _final(states, games[-1])
        for game in games:
            states = _convolve(states, game)
    else:
        won, states = _approximate(progress.lead, games, margin)
    # Extra games are played on board 1.
    extra = per_board[0] or model.distribution(gaps[0]) if extras_left else ()
    for _ in range(extras_left):
        pending: dict[int, float] = {}
        for lead, p in states.items():
            if abs(lead) >= margin:
                won += p if lead > 0 else 0.0
            else:
                for step, q in extra:
                    pending[lead + step] = pending.get(lead + step, 0.0) + p * q
        states = pending
    for lead, p in states.items():
        won += p if lead > 0 else p / 2 if lead == 0 else 0.0
    return min(1.0, max(0.0, won))


@dataclass
class ChanceTable:
    """A one-board match's chance by rating gap, on the model's grid (for brackets, where the
    same format meets thousands of gaps): exact at the grid points, linear between them."""

    model: GameModel
    fmt: MatchFormat

    def __post_init__(self) -> None:
        if self.fmt.boards != 1:
            raise ValueError("a chance table is for one-board matches")
        self._grid: dict[int, float] = {0: 0.5}

    def _at(self, index: int) -> float:
        chance = self._grid.get(index)
        if chance is None:
            gap = index * GRID_STEP
            chance = match_chance(self.model, self.fmt, (gap,), (0.0,))
            self._grid[index] = chance
        return chance

    def chance(self, gap: float) -> float:
        """Side A's chance at a rating gap (A's rating minus B's); symmetric by construction."""
        size = min(abs(gap), MAX_GAP) / GRID_STEP
        index = int(size)
        low = self._at(index)
        value = low + (self._at(index + 1) - low) * (size - index)
        return value if gap >= 0 else 1.0 - value


def sample_match(
    rng: random.Random,
    model: GameModel,
    fmt: MatchFormat,
    mus: Sequence[float],
    progress: MatchProgress | None = None,
) -> tuple[int, int]:
    """Play the rest of a match at random: the TPs each side gains, in tenths. `mus`: the
    margin centre per board (`model.mu(gap)`).

    Games are played board by board in turn and stop when the match is decided early, so the
    TPs are those a real match would have (nobody gains TPs for games not played)."""
    progress = progress or MatchProgress.fresh(fmt)
    left = list(progress.games_left or (0,) * fmt.boards)
    gauss, spread, cap = rng.gauss, model.params.spread, model.cap
    leads = model.margin_leads  # by margin + cap
    extra_margin = fmt.extra_margin
    with_extras = fmt.max_extra_games > 0
    lead, gained, games = progress.lead, 0, 0
    planned_left = sum(left)
    boards = len(left)
    board = 0
    while planned_left:
        reachable = GAME_TENTHS * planned_left  # _clinched, inlined: this loop is hot
        if (abs(lead) - reachable >= extra_margin) if with_extras else (abs(lead) > reachable):
            break
        while not left[board]:
            board = (board + 1) % boards
        margin = round(gauss(mus[board], spread))
        step = leads[min(max(margin, -cap), cap) + cap]
        lead += step
        gained += step
        games += 1
        left[board] -= 1
        planned_left -= 1
        board = (board + 1) % boards
    extras = max(0, fmt.max_extra_games - progress.extra_games_played)
    while extras and abs(lead) < extra_margin:
        margin = round(gauss(mus[0], spread))
        step = leads[min(max(margin, -cap), cap) + cap]
        lead += step
        gained += step
        games += 1
        extras -= 1
    tps_a = (GAME_TENTHS * games + gained) // 2
    return tps_a, GAME_TENTHS * games - tps_a


@dataclass
class OutcomeTable:
    """The TPs a fresh one-board match gives each side, as a distribution over whole
    outcomes, on the model's gap grid: drawing a match is then one look-up instead of playing
    its games (the Swiss simulation draws hundreds of thousands). Between grid points a draw
    comes from one neighbour or the other in proportion to the distance: the linear blend of
    the two distributions, exactly."""

    model: GameModel
    fmt: MatchFormat

    def __post_init__(self) -> None:
        if self.fmt.boards != 1:
            raise ValueError("an outcome table is for one-board matches")
        self._grid: dict[int, tuple[list[float], list[tuple[int, int]]]] = {}

    def outcomes(self, gap: float) -> dict[tuple[int, int], float]:
        """(side A's TPs, side B's TPs) in tenths → probability, for a match at `gap`; the
        match ends early as the rules end it, and plays its extra games."""
        fmt, game = self.fmt, self.model.distribution(gap)
        with_extras = fmt.max_extra_games > 0
        live: dict[int, float] = {0: 1.0}  # lead → chance, still playing
        done: dict[tuple[int, int], float] = {}

        def finish(lead: int, games: int, p: float) -> None:
            key = ((GAME_TENTHS * games + lead) // 2, (GAME_TENTHS * games - lead) // 2)
            done[key] = done.get(key, 0.0) + p

        for played in range(fmt.games):
            left = fmt.games - played
            reachable = GAME_TENTHS * left
            nxt: dict[int, float] = {}
            for lead, p in live.items():
                over = (
                    abs(lead) - reachable >= fmt.extra_margin
                    if with_extras
                    else abs(lead) > reachable
                )
                if over:
                    finish(lead, played, p)
                    continue
                for step, q in game:
                    nxt[lead + step] = nxt.get(lead + step, 0.0) + p * q
            live = nxt
        games = fmt.games
        for _ in range(fmt.max_extra_games):
            nxt = {}
            for lead, p in live.items():
                if abs(lead) >= fmt.extra_margin:
                    finish(lead, games, p)
                    continue
                for step, q in game:
                    nxt[lead + step] = nxt.get(lead + step, 0.0) + p * q
            live = nxt
            games += 1
        for lead, p in live.items():
            finish(lead, games, p)
        return done

    def _at(self, index: int) -> tuple[list[float], list[tuple[int, int]]]:
        found = self._grid.get(index)
        if found is None:
            rows = sorted(self.outcomes(index * GRID_STEP).items())
            cumulative, total = [], 0.0
            for _outcome, p in rows:
                total += p
                cumulative.append(total)
            found = (cumulative, [outcome for outcome, _ in rows])
            self._grid[index] = found
        return found

    def sample(self, rng: random.Random, gap: float) -> tuple[int, int]:
        """Draw a match's TPs (side A's, side B's), in tenths."""
        size = min(abs(gap), MAX_GAP) / GRID_STEP
        index = int(size)
        if rng.random() < size - index:
            index += 1
        cumulative, outcomes = self._at(index)
        pick = bisect_right(cumulative, rng.random() * cumulative[-1])
        a, b = outcomes[min(pick, len(outcomes) - 1)]
        return (a, b) if gap >= 0 else (b, a)
