"""One game between two ratings: the chance of each tile margin, hence of each TP split.

The tournament Elo predicts a *share* of the 20 TPs a game shares, Φ(gap / scale), not a win
(docs/ratings.md §6). Matches are decided on summed TPs, so a forecast needs the whole spread of
a game's TPs, not only its mean. The model (docs/ratings.md, "Forecasts"):

- A game's tile margin for side A is a normal variable D ~ N(μ, spread²), rounded to whole
  tiles. D > 0 is a win by D tiles, D < 0 a loss, D = 0 a draw; the TPs follow the event's
  margin table, which stops growing at 36 tiles (so the tails beyond ±36 are lumped there).
- `spread` is the same for every pairing (a constant of `ForecastParams`); μ is solved so
  that the mean TP share of the game is exactly the Elo's Φ(gap / scale). So the model adds one
  constant to the Elo and agrees with it wherever the Elo says anything.

A game's result is kept as side A's *lead* in tenths of a TP, `tps_a − tps_b` (−200..200): sums
of leads are exact integers, and the match's lead decides it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from math import erfc, exp, pi, sqrt

from ..points import CURRENT_TP_SCHEME, tp_scheme

GAME_TENTHS = 200  # the 20 TPs of a game, in tenths

Distribution = tuple[tuple[int, float], ...]  # (lead in tenths, probability), lead ascending


def normal_cdf(z: float) -> float:
    """Φ(z); erfc keeps full relative precision in the lower tail."""
    return 0.5 * erfc(-z / sqrt(2.0))


@dataclass(frozen=True)
class ForecastParams:
    """The constants of the forecasts (docs/ratings.md, "Forecasts")."""

    scale: float = 565.7
    """The Elo's: a rating gap of `scale` expects Φ(1) = 84.13 % of the TPs."""
    spread: float = 11.3
    """Standard deviation of a game's tile margin, in tiles (a typical game is won by about 9
    tiles: for a normal margin E|D| = spread·√(2/π), so 9 tiles is a spread of 11.3)."""
    unrated: float = 1850.0
    """The rating of a player without an Elo rating: the pool's anchor, as the Elo counts an
    unrated opponent."""
    tp_scheme: int = CURRENT_TP_SCHEME
    memory_games: int = 60
    """The Elo's: a rating weighs at most this many past games, so its error stops shrinking
    there (`rating_error`)."""

    def __post_init__(self) -> None:
        if self.memory_games < 1:
            raise ValueError("memory_games must be at least 1")
        if self.scale <= 0:
            raise ValueError("scale must be positive")
        if self.spread <= 0:
            raise ValueError("spread must be positive")


FORECAST_PARAMS = ForecastParams()

# Rating gaps are looked up on a grid of this step (linear interpolation between grid points):
# what the model gives moves smoothly with the gap, so the error is far below what anyone reads
# (a hundredth of a percentage point at most; tests/tournaments/formats/test_forecast_game.py).
GRID_STEP = 25.0
# Beyond this gap every forecast is as certain as it gets (Φ(4000 / 565.7) ≈ 1 − 10⁻¹²).
MAX_GAP = 4000.0


def pair_rating(ratings: Sequence[float]) -> float:
    """A pair's rating: the mean of its partners'. In a pairs game the partners share a colour
    and take turns, so each makes about half of the pair's play; the doubles table already
    moves both partners from the two pairs' averages (docs/ratings.md §3)."""
    if not ratings:
        raise ValueError("a pair has players")
    return sum(ratings) / len(ratings)


@dataclass
class GameModel:
    """The game distribution for any rating gap, with the solved μ cached on a grid."""

    params: ForecastParams = FORECAST_PARAMS
    _winner_tenths: tuple[int, ...] = field(init=False, repr=False)
    _mu_grid: dict[int, float] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        scheme = tp_scheme(self.params.tp_scheme)
        self._winner_tenths = tuple(int(tps * 10) for tps in scheme.winner_tps)
        cap = len(self._winner_tenths) - 1
        self._margin_leads = tuple(self.lead_tenths(d) for d in range(-cap, cap + 1))
        # The share is a sum over the cut points d + ½ between margins: Φ at each cut times the
        # jump of the lead there (a telescoped Σ P(D = d)·lead(d)), so one Φ per cut point.
        self._jumps = tuple(
            (d + 0.5, self._margin_leads[d + cap + 1] - self._margin_leads[d + cap])
            for d in range(-cap, cap)
        )

    # --- the margin distribution -------------------------------------------------------------

    @property
    def cap(self) -> int:
        """The margin from which the winner takes every TP."""
        return len(self._winner_tenths) - 1

    def margins(self, mu: float) -> list[tuple[int, float]]:
        """P(D = d) for d = −cap..cap, the tails lumped at ±cap."""
        spread, cap = self.params.spread, self.cap
        cdf = [normal_cdf((d + 0.5 - mu) / spread) for d in range(-cap, cap)]
        rows = [(-cap, cdf[0])]
        rows.extend((d, cdf[d + cap] - cdf[d + cap - 1]) for d in range(-cap + 1, cap))
        rows.append((cap, 1.0 - cdf[-1]))
        return rows

    @property
    def margin_leads(self) -> tuple[int, ...]:
        """Side A's lead in tenths for each margin −cap..cap (index: margin + cap)."""
        return self._margin_leads

    def lead_tenths(self, margin: int) -> int:
        """Side A's lead in tenths of a TP for a tile margin (negative: a loss)."""
        winner = self._winner_tenths[min(abs(margin), len(self._winner_tenths) - 1)]
        lead = 2 * winner - GAME_TENTHS
        return lead if margin >= 0 else -lead

    def share_at(self, mu: float) -> float:
        """Side A's mean TP share when the margin is centred on μ."""
        spread = self.params.spread
        # E[lead] = lead(cap) − Σ over cut points of Φ(cut − μ)·jump.
        total = self._margin_leads[-1] - sum(
            normal_cdf((cut - mu) / spread) * jump for cut, jump in self._jumps
        )
        return 0.5 + total / (2 * GAME_TENTHS)

    def _slope_at(self, mu: float) -> float:
        """d share / dμ (the normal density at each cut point times its jump)."""
        spread = self.params.spread
        density = sum(exp(-(((cut - mu) / spread) ** 2) / 2) * jump for cut, jump in self._jumps)
        return density / (spread * sqrt(2 * pi) * 2 * GAME_TENTHS)

    def solve_mu(self, share: float, start: float = 0.0) -> float:
        """The μ whose mean TP share is `share`: Newton's method from `start`, kept inside a
        bracket that bisection narrows whenever a step would leave it (the share grows with μ,
        so the root is unique)."""
        if not 0.0 < share < 1.0:
            raise ValueError(f"a share strictly between 0 and 1, got {share!r}")
        low, high = -250.0, 250.0
        mu = min(max(start, low), high)
        for _ in range(100):
            error = self.share_at(mu) - share
            if abs(error) < 1e-13:
                break
            if error < 0:
                low = mu
            else:
                high = mu
            slope = self._slope_at(mu)
            step = mu - error / slope if slope > 0 else (low + high) / 2
            mu = step if low < step < high else (low + high) / 2
            if high - low < 1e-12:
                break
        return mu

    # --- by rating gap -------------------------------------------------------------------------

    def expected_share(self, gap: float) -> float:
        """The Elo's expected TP share of side A, Φ(gap / scale)."""
        return normal_cdf(gap / self.params.scale)

    def _grid_mu(self, index: int) -> float:
        mu = self._mu_grid.get(index)
        if mu is None:
            if index == 0:
                mu = 0.0
            else:
                # Start from the neighbour below: μ grows almost in step with the gap.
                below = self._mu_grid.get(index - 1, 0.0)
                mu = self.solve_mu(self.expected_share(index * GRID_STEP), start=below)
            self._mu_grid[index] = mu
        return mu

    def mu(self, gap: float) -> float:
        """The centre of side A's margin for a rating gap (A's rating minus B's)."""
        size = min(abs(gap), MAX_GAP) / GRID_STEP
        index = int(size)
        low = self._grid_mu(index)
        mu = low + (self._grid_mu(index + 1) - low) * (size - index)
        return mu if gap >= 0 else -mu

    def distribution(self, gap: float) -> Distribution:
        """Side A's lead in one game (tenths of a TP) and its probability."""
        leads: dict[int, float] = {}
        cap = self.cap
        for d, p in self.margins(self.mu(gap)):
            lead = self._margin_leads[d + cap]
            leads[lead] = leads.get(lead, 0.0) + p
        return tuple(sorted(leads.items()))

    # --- ratings known only so well ---------------------------------------------------------

    @property
    def game_error(self) -> float:
        """The standard error of a rating measured on one game: the spread of one game's TP
        share between equals (about 0.29 with the default spread) carried through the Elo's
        performance, scale · Φ⁻¹(share), whose slope at ½ is scale · √(2π)."""
        found = self.__dict__.get("_game_error")
        if found is None:
            variance = sum(p * (lead / (2 * GAME_TENTHS)) ** 2 for lead, p in self.distribution(0))
            found = self.__dict__["_game_error"] = self.params.scale * sqrt(variance * 2 * pi)
        return found

    def rating_error(self, games: int | None) -> float:
        """How far a rating on `games` games may be from the player's strength (one standard
        error): `game_error` / √games, the games counted up to the Elo's memory; a player
        without a rating is as uncertain as one game makes a rating."""
        counted = min(max(games or 0, 1), self.params.memory_games)
        return self.game_error / sqrt(counted)

    def effective_gap(self, gap: float, error_a: float = 0.0, error_b: float = 0.0) -> float:
        """The gap whose expected share, Φ(gap′ / scale), is the expected share when the two
        ratings are known only within these errors: averaging Φ(x / scale) over x normal around
        the gap with variance error_a² + error_b² gives Φ(gap / √(scale² + error_a² + error_b²))
        (the reason Glicko damps an uncertain opponent), so gap′ = gap · scale / √(…)."""
        scale = self.params.scale
        return gap * scale / sqrt(scale * scale + error_a * error_a + error_b * error_b)

    def win_chance(self, gap: float) -> float:
        """Side A's chance to win one game, a draw counting half."""
        return sum(
            p if lead > 0 else p / 2 if lead == 0 else 0.0 for lead, p in self.distribution(gap)
        )


def tenths(tps: Decimal | float | int) -> int:
    """TPs in whole tenths (TPs are kept to one decimal place)."""
    return int(round(Decimal(str(tps)) * 10))
