"""The tournament Elo: ratings from tournament-point (TP) shares, pool anchored at 1850.

Every two-player game shares 20 TPs, so a game's result is a share in [0, 1] rather than a
win or a loss. A player rated Ra expects the share

    E = Φ((Ra − Rb) / scale)            scale = 565.7 = 400·√2

against Rb (Φ the standard normal CDF). After a tournament, a player's performance is

    P = opposition average + scale · Φ⁻¹(TP share)    (the gap capped at ± performance_cap)

and the new rating blends the old one with it, weighted by games:

    new = (w · old + n · P) / (w + n)       w = min(G, memory_games), n = games just played

so a newcomer's first tournament sets the rating outright, the first dozens of games average
their performances, and an established rating moves by n / (memory_games + n) of the gap. All of
a tournament's players are updated at once from the ratings they brought. Between tournaments
``anchor_pool`` shifts the pool so that its games-weighted mean stays at 1850. Reasons are in
docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import erfc, exp, fsum, log, pi, sqrt
from typing import TypeVar

__all__ = [
    "ELO_PARAMS",
    "EloParams",
    "EloRating",
    "EloUpdate",
    "anchor_pool",
    "anchor_shift",
    "elo_tournament",
    "elo_update",
    "expected_share",
    "is_provisional",
    "normal_cdf",
    "normal_ppf",
    "performance",
]

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class EloParams:
    """Constants of the tournament Elo; the Django side takes them from the versioned parameter
    set in force (``ratings/params.py``)."""

    scale: float = 565.7
    """Rating gap at which the stronger player expects Φ(1) = 84.13 % of the TPs."""
    anchor: float = 1850.0
    """Games-weighted mean the pool is shifted to."""
    initial: float = 1850.0
    """Rating an unrated opponent counts as (a newcomer's own rating comes from performance)."""
    memory_games: int = 60
    """At most this many past games weigh against the new performance."""
    provisional_games: int = 36
    """A rating on fewer games is provisional."""
    performance_cap: float = 800.0
    """A performance is at most this far from the opposition average (a 0 % or 100 % share
    would otherwise be infinitely far)."""
    anchor_tolerance: float = 0.05
    """The pool is re-anchored only once its mean has drifted at least this far from the
    anchor, so a tiny drift does not write a change for every rated player."""

    def __post_init__(self) -> None:
        if self.scale <= 0:
            raise ValueError("scale must be positive")
        if self.memory_games < 1:
            raise ValueError("memory_games must be at least 1")
        if self.provisional_games < 0:
            raise ValueError("provisional_games must not be negative")
        if self.performance_cap <= 0:
            raise ValueError("performance_cap must be positive")
        if self.anchor_tolerance < 0:
            raise ValueError("anchor_tolerance must not be negative")


ELO_PARAMS = EloParams()


def normal_cdf(z: float) -> float:
    """Φ(z), the standard normal CDF. erfc keeps full relative precision in the lower tail."""
    return 0.5 * erfc(-z / sqrt(2.0))


# Acklam's rational approximation to Φ⁻¹ (relative error < 1.15e-9), then one Halley step
# against normal_cdf, which brings it to double precision.
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
      1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)  # fmt: skip
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
      6.680131188771972e01, -1.328068155288572e01)  # fmt: skip
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
      -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)  # fmt: skip
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
      3.754408661907416e00)  # fmt: skip
_P_LOW = 0.02425


def normal_ppf(p: float) -> float:
    """Φ⁻¹(p) for 0 < p < 1: the z with normal_cdf(z) == p."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"normal_ppf needs 0 < p < 1, got {p!r}")
    a, b, c, d = _A, _B, _C, _D
    if p < _P_LOW:
        q = sqrt(-2.0 * log(p))
        z = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0
        )
    elif p <= 1.0 - _P_LOW:
        q = p - 0.5
        r = q * q
        z = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0)
        )
    else:
        q = sqrt(-2.0 * log(1.0 - p))
        z = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0
        )
    # Halley refinement: e is the CDF error, u = e / φ(z).
    e = normal_cdf(z) - p
    u = e * sqrt(2.0 * pi) * exp(z * z / 2.0)
    return z - u / (1.0 + z * u / 2.0)


def expected_share(rating: float, opponent: float, params: EloParams = ELO_PARAMS) -> float:
    """The TP share ``rating`` expects against ``opponent``: Φ((rating − opponent) / scale)."""
    return normal_cdf((rating - opponent) / params.scale)


def performance(opposition_average: float, share: float, params: EloParams = ELO_PARAMS) -> float:
    """The rating at which ``share`` would be the expected share against the opposition
    average: opposition_average + scale · Φ⁻¹(share), at most performance_cap away."""
    cap = params.performance_cap
    if share <= 0.0:
        return opposition_average - cap
    if share >= 1.0:
        return opposition_average + cap
    gap = params.scale * normal_ppf(share)
    return opposition_average + max(-cap, min(cap, gap))


def is_provisional(games: int, params: EloParams = ELO_PARAMS) -> bool:
    """A rating on fewer than ``provisional_games`` games is shown as provisional."""
    return games < params.provisional_games


@dataclass(frozen=True, slots=True)
class EloRating:
    """A player's Elo standing: the rating and the games count G shown beside it."""

    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class EloUpdate:
    """One player's Elo after a tournament, with the figures that explain it."""

    rating: float
    games: int
    provisional: bool
    delta: float
    """New rating minus the rating brought; 0 for a newcomer, who brought none."""
    performance: float
    opposition_average: float
    share: float
    """TPs won ÷ TPs available."""
    expected_share: float
    """Mean of the expected shares of the games played, from the ratings brought."""


def elo_update(
    rating: float,
    games: int,
    opponent_ratings: Sequence[float],
    share: float,
    *,
    params: EloParams = ELO_PARAMS,
) -> EloUpdate:
    """A player's Elo after a tournament.

    ``rating`` and ``games`` are the standing brought (games 0 for a newcomer, whose rating is
    then ignored); ``opponent_ratings`` has one entry per game played (an opponent met twice
    appears twice); ``share`` is TPs won ÷ TPs available over those games.
    """
    n = len(opponent_ratings)
    if n == 0:
        return EloUpdate(
            rating=rating,
            games=games,
            provisional=is_provisional(games, params),
            delta=0.0,
            performance=rating,
            opposition_average=rating,
            share=share,
            expected_share=0.5,
        )
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a TP share lies in [0, 1], got {share!r}")
    opposition = fsum(opponent_ratings) / n
    perf = performance(opposition, share, params)
    expected = fsum(expected_share(rating, o, params) for o in opponent_ratings) / n
    weight = min(games, params.memory_games)
    new = (weight * rating + n * perf) / (weight + n)
    return EloUpdate(
        rating=new,
        games=games + n,
        provisional=is_provisional(games + n, params),
        delta=new - rating if games else 0.0,
        performance=perf,
        opposition_average=opposition,
        share=share,
        expected_share=expected,
    )


def elo_tournament(
    standings: Mapping[P, EloRating],
    games: Iterable[tuple[P, P, float, float]],
    *,
    params: EloParams = ELO_PARAMS,
) -> dict[P, EloUpdate]:
    """Every player's Elo after one Elo-rated tournament.

    ``games`` are ``(player_a, player_b, tp_a, tp_b)``, normally with tp_a + tp_b = 20 after
    any time penalties. A player missing from ``standings`` is a newcomer: an opponent meets
    them at ``params.initial``. Every update uses the ratings brought to the tournament, so the
    order of the games does not matter.
    """
    newcomer = EloRating(rating=params.initial, games=0)
    opponents: dict[P, list[float]] = {}
    won: dict[P, list[float]] = {}
    available: dict[P, list[float]] = {}
    for a, b, tp_a, tp_b in games:
        if tp_a < 0 or tp_b < 0 or tp_a + tp_b <= 0:
            raise ValueError(f"TPs must be non-negative with a positive total: {tp_a}, {tp_b}")
        rating_a = standings.get(a, newcomer).rating
        rating_b = standings.get(b, newcomer).rating
        opponents.setdefault(a, []).append(rating_b)
        opponents.setdefault(b, []).append(rating_a)
        won.setdefault(a, []).append(tp_a)
        won.setdefault(b, []).append(tp_b)
        available.setdefault(a, []).append(tp_a + tp_b)
        available.setdefault(b, []).append(tp_a + tp_b)
    result: dict[P, EloUpdate] = {}
    for player, opposition in opponents.items():
        brought = standings.get(player, newcomer)
        share = fsum(won[player]) / fsum(available[player])
        result[player] = elo_update(brought.rating, brought.games, opposition, share, params=params)
    return result


def anchor_shift(standings: Iterable[EloRating], params: EloParams = ELO_PARAMS) -> float:
    """The amount to add to every rating so that the games-weighted mean becomes the anchor
    (0 if nobody has played)."""
    items = list(standings)
    total_games = sum(s.games for s in items)
    if total_games == 0:
        return 0.0
    mean = fsum(s.rating * s.games for s in items) / total_games
    return params.anchor - mean


def anchor_step(standings: Iterable[EloRating], params: EloParams = ELO_PARAMS) -> float:
    """The common shift re-anchoring the pool needs (``anchor_shift``), or 0 while the pool's
    drift is within ``params.anchor_tolerance``."""
    shift = anchor_shift(standings, params)
    return shift if abs(shift) >= params.anchor_tolerance and shift else 0.0


def anchor_pool(
    standings: Mapping[P, EloRating], params: EloParams = ELO_PARAMS
) -> dict[P, EloRating]:
    """The pool shifted by one common amount so its games-weighted mean is the anchor.

    Weighting by games keeps a crowd of provisional newcomers from moving the established
    ratings; a common shift keeps every rating gap, hence every expected share, unchanged.
    """
    shift = anchor_shift(standings.values(), params)
    return {
        player: EloRating(rating=s.rating + shift, games=s.games) for player, s in standings.items()
    }
