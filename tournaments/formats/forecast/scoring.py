"""How good forecasts were: Brier score, log loss, two baselines and a calibration table.

A forecast is side A's chance `p` to win a game (or match); the outcome `y` is 1 when side A
won, 0 when it lost and ½ for a draw. Lower is better for both scores:

- Brier score: the mean of (p − y)². A coin flip (p = ½) scores ¼ whatever happens.
- Log loss: the mean of −(y·ln p + (1 − y)·ln(1 − p)). A coin flip scores ln 2 ≈ 0.693; a
  confident forecast that goes wrong costs a lot, so it punishes overconfidence.

Baselines: the coin flip, and "the higher rated always wins", which gives the higher rated side
the chance `h` = how often the higher rated side did win in this very history (its hit rate:
known only afterwards, so the baseline is a little flattered; a certain 100 % would make its log
loss infinite at the first upset), and ½ when the ratings are equal.

The forecasts are called better than the coin flip only when both scores beat it by more than
two standard errors of the per-game difference (a one-sided test at about 2.3 %): on a short
or luckless history a small edge proves nothing, and then the pages show no forecasts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import log, sqrt

LOG_FLOOR = 1e-12
COIN_BRIER = 0.25
COIN_LOG_LOSS = log(2.0)
SIGNIFICANCE = 2.0  # standard errors


@dataclass(frozen=True)
class Scored:
    """One forecast and what happened: side A's chance, A's result (1, ½, 0), the rating gap
    (A's minus B's; only its sign is used, by the higher-rated baseline)."""

    chance: float
    outcome: float
    gap: float = 0.0


@dataclass(frozen=True)
class CalibrationBin:
    """Forecasts for the favoured side between `low` and `high`: how many, their mean, and
    how often the favoured side won."""

    low: float
    high: float
    count: int
    mean_forecast: float
    observed: float


@dataclass(frozen=True)
class Scores:
    brier: float
    log_loss: float


@dataclass(frozen=True)
class Gain:
    """The mean per-forecast improvement over the coin flip and its standard error."""

    mean: float
    standard_error: float

    @property
    def significant(self) -> bool:
        return self.mean > SIGNIFICANCE * self.standard_error


@dataclass(frozen=True)
class Evaluation:
    count: int
    forecast: Scores
    coin: Scores
    favourite: Scores
    hit_rate: float  # how often the higher rated side won (draws half), where ratings differ
    decisive: int  # forecasts where the ratings differed
    brier_gain: Gain
    log_gain: Gain
    calibration: tuple[CalibrationBin, ...]

    @property
    def better_than_coin(self) -> bool:
        return self.count > 0 and self.brier_gain.significant and self.log_gain.significant


def brier_score(chance: float, outcome: float) -> float:
    return (chance - outcome) ** 2


def log_loss(chance: float, outcome: float) -> float:
    p = min(max(chance, LOG_FLOOR), 1.0 - LOG_FLOOR)
    return -(outcome * log(p) + (1.0 - outcome) * log(1.0 - p))


def _gain(differences: Sequence[float]) -> Gain:
    n = len(differences)
    if n < 2:
        return Gain(sum(differences) / n if n else 0.0, float("inf"))
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return Gain(mean, sqrt(variance / n))


def calibration(scored: Sequence[Scored], bins: int = 10) -> tuple[CalibrationBin, ...]:
    """The favoured side's forecasts (folded to ½..1) in `bins` equal bins."""
    width = 0.5 / bins
    rows: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for s in scored:
        chance, outcome = (
            (s.chance, s.outcome) if s.chance >= 0.5 else (1 - s.chance, 1 - s.outcome)
        )
        # A hair over the edge, so that 0.6 lands in [0.6, 0.7) despite binary fractions.
        rows[min(bins - 1, int((chance - 0.5) / width + 1e-9))].append((chance, outcome))
    return tuple(
        CalibrationBin(
            low=0.5 + i * width,
            high=0.5 + (i + 1) * width,
            count=len(row),
            mean_forecast=sum(c for c, _ in row) / len(row) if row else 0.0,
            observed=sum(o for _, o in row) / len(row) if row else 0.0,
        )
        for i, row in enumerate(rows)
    )


def evaluate(scored: Sequence[Scored], bins: int = 10) -> Evaluation:
    """Score the forecasts against both baselines."""
    n = len(scored)
    decisive = [s for s in scored if s.gap != 0]
    hit_rate = (
        sum(s.outcome if s.gap > 0 else 1 - s.outcome for s in decisive) / len(decisive)
        if decisive
        else 0.5
    )

    def favourite(s: Scored) -> float:
        return hit_rate if s.gap > 0 else 1 - hit_rate if s.gap < 0 else 0.5

    def mean(values: list[float]) -> float:
        return sum(values) / n if n else 0.0

    briers = [brier_score(s.chance, s.outcome) for s in scored]
    losses = [log_loss(s.chance, s.outcome) for s in scored]
    coin_briers = [brier_score(0.5, s.outcome) for s in scored]
    return Evaluation(
        count=n,
        forecast=Scores(mean(briers), mean(losses)),
        coin=Scores(mean(coin_briers), COIN_LOG_LOSS if n else 0.0),
        favourite=Scores(
            mean([brier_score(favourite(s), s.outcome) for s in scored]),
            mean([log_loss(favourite(s), s.outcome) for s in scored]),
        ),
        hit_rate=hit_rate,
        decisive=len(decisive),
        brier_gain=_gain([c - b for c, b in zip(coin_briers, briers, strict=True)]),
        log_gain=_gain([COIN_LOG_LOSS - x for x in losses]),
        calibration=calibration(scored, bins),
    )
