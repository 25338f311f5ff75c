"""Tournament points (TPs): the 20 points every two-player game shares, and time penalties.

The winner's share grows with the tile margin. The published table is authoritative; it happens
to equal min(20, 12 + 4/3 * sqrt(m)) rounded to 0.1, which the tests check, but the table is
what we store so that a later revision of the formula cannot silently change old results.
Events store the scheme version they were played under (`TPScheme.version`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from .errors import FormatError, gettext_noop

#: TPs shared by the two sides of one game.
GAME_TPS = Decimal("20.0")

#: Seconds each player has in an online game (singles), and in a pairs game.
SINGLES_TIME_LIMIT = 15 * 60
PAIRS_TIME_LIMIT = 12 * 60

# Scheme 1: winner's share for margins 0..36, copied from spec/tournament-points.csv.
# Margin 0 is a draw (10-10); from 36 on the winner takes everything.
# fmt: off
_SCHEME_1_WINNER_TPS = (
    "10.0", "13.3", "13.9", "14.3", "14.7", "15.0", "15.3", "15.5", "15.8", "16.0",
    "16.2", "16.4", "16.6", "16.8", "17.0", "17.2", "17.3", "17.5", "17.7", "17.8",
    "18.0", "18.1", "18.3", "18.4", "18.5", "18.7", "18.8", "18.9", "19.1", "19.2",
    "19.3", "19.4", "19.5", "19.7", "19.8", "19.9", "20.0",
)
# fmt: on


@dataclass(frozen=True)
class TPScheme:
    """One version of the margin → TPs table.

    `winner_tps[m]` is the winner's share for a tile margin of m; margins beyond the end of the
    table get the last entry (the table ends where the winner takes all).
    """

    version: int
    winner_tps: tuple[Decimal, ...]
    total: Decimal = GAME_TPS

    def __post_init__(self) -> None:
        # A malformed table is a programming error in this module, so plain asserts/ValueError.
        if not self.winner_tps or self.winner_tps[0] * 2 != self.total:
            raise ValueError(f"scheme {self.version}: margin 0 must split the TPs evenly")
        if self.winner_tps[-1] != self.total:
            raise ValueError(f"scheme {self.version}: the table must end at the full share")
        if any(b < a for a, b in zip(self.winner_tps, self.winner_tps[1:], strict=False)):
            raise ValueError(f"scheme {self.version}: shares must not shrink with the margin")

    @property
    def all_tps_margin(self) -> int:
        """The smallest margin at which the winner takes all the TPs."""
        return len(self.winner_tps) - 1

    def split(self, margin: int) -> tuple[Decimal, Decimal]:
        """(winner's TPs, loser's TPs) for a non-negative tile margin."""
        if margin < 0:
            raise ValueError(f"a tile margin cannot be negative (got {margin})")
        winner = self.winner_tps[min(margin, self.all_tps_margin)]
        return winner, self.total - winner


TP_SCHEMES: Mapping[int, TPScheme] = MappingProxyType(
    {1: TPScheme(version=1, winner_tps=tuple(Decimal(s) for s in _SCHEME_1_WINNER_TPS))}
)
#: The scheme new events should store.
CURRENT_TP_SCHEME = 1


def tp_scheme(version: int) -> TPScheme:
    """The TP scheme an event stored, or a `FormatError` if this code does not know it."""
    try:
        return TP_SCHEMES[version]
    except KeyError:
        known = ", ".join(str(v) for v in sorted(TP_SCHEMES))
        raise FormatError(
            gettext_noop("unknown tournament-points scheme %(version)s (known schemes: %(known)s)"),
            version=version,
            known=known,
        ) from None


def tps_for_margin(margin: int, scheme: int = CURRENT_TP_SCHEME) -> tuple[Decimal, Decimal]:
    """(winner's TPs, loser's TPs) for a tile margin, e.g. 8 → (15.8, 4.2)."""
    return tp_scheme(scheme).split(margin)


#: A bye scores as a game won by this many tiles, the largest margin of a normal win (house
#: rule); so does the game a table open's drop-out leaves to their opponent.
BYE_MARGIN = 10


def bye_tps(games: int = 1) -> Decimal:
    """What a bye earns over `games` games: each a win by `BYE_MARGIN` tiles (16.2 TPs)."""
    return Decimal(games) * tps_for_margin(BYE_MARGIN)[0]


def game_tps(
    score_a: int, score_b: int, scheme: int = CURRENT_TP_SCHEME
) -> tuple[Decimal, Decimal]:
    """TPs of side A and side B for a finished game with these tile scores.

    >>> game_tps(12, 4)
    (Decimal('15.8'), Decimal('4.2'))
    """
    if score_a < 0 or score_b < 0:
        raise FormatError(
            gettext_noop("a game score cannot be negative (got %(score_a)s–%(score_b)s)"),
            score_a=score_a,
            score_b=score_b,
        )
    winner, loser = tp_scheme(scheme).split(abs(score_a - score_b))
    return (winner, loser) if score_a >= score_b else (loser, winner)


def result_tps(
    score_a: int,
    score_b: int,
    *,
    conceded_by: int | None = None,
    scheme: int = CURRENT_TP_SCHEME,
) -> tuple[Decimal, Decimal]:
    """TPs of side A and side B for a game's result, however it was recorded.

    `conceded_by` is the side (0 = A, 1 = B) that resigned or lost on time, `None` for a game
    played out. That side loses: the winner gets the TPs of the tile margin, and at least
    those of a one-tile win (13.3–6.7), because the table is defined on tile margins only
    (house rule, docs/architecture.md "Tournaments"). Online games and score sheets both
    come here, so a face-to-face result earns exactly what the same online result would.

    >>> result_tps(10, 14, conceded_by=1)  # B resigned 4 tiles ahead: A wins by 4
    (Decimal('14.7'), Decimal('5.3'))
    """
    if conceded_by is None:
        return game_tps(score_a, score_b, scheme)
    if conceded_by not in (0, 1):
        raise ValueError(f"conceded_by is a side, 0 or 1 (got {conceded_by!r})")
    if score_a < 0 or score_b < 0:
        raise FormatError(
            gettext_noop("a game score cannot be negative (got %(score_a)s–%(score_b)s)"),
            score_a=score_a,
            score_b=score_b,
        )
    winner, loser = tp_scheme(scheme).split(max(1, abs(score_a - score_b)))
    return (loser, winner) if conceded_by == 0 else (winner, loser)


def time_penalty_tps(
    seconds_used: int, limit_seconds: int = SINGLES_TIME_LIMIT, *, claimed: bool
) -> int:
    """TPs one player forfeits to the opponent for running over the time limit.

    Reaching the limit (15:00 in singles) costs 1 TP, and each further full minute 1 more:
    15:00–15:59 → 1, 16:00–16:59 → 2. The penalty only exists if the opponent claimed it, so the
    caller must say whether they did; an unclaimed overrun costs nothing.
    """
    if seconds_used < 0 or limit_seconds <= 0:
        raise ValueError(f"bad clock: used {seconds_used}s of {limit_seconds}s")
    if not claimed or seconds_used < limit_seconds:
        return 0
    return 1 + (seconds_used - limit_seconds) // 60


def apply_time_penalties(
    tps_a: Decimal, tps_b: Decimal, penalty_a: int, penalty_b: int
) -> tuple[Decimal, Decimal]:
    """Move penalty TPs between the sides of one game.

    `penalty_a` is what side A forfeits to side B (in pairs: the sum of both partners'
    penalties), and vice versa. Only the net transfer matters. The result keeps the game's
    total and clamps each side into 0..total: a side cannot lose TPs it does not have.
    """
    total = tps_a + tps_b
    if total != GAME_TPS:
        raise ValueError(f"a game shares {GAME_TPS} TPs, got {tps_a} + {tps_b}")
    if penalty_a < 0 or penalty_b < 0:
        raise ValueError(f"penalties cannot be negative (got {penalty_a}, {penalty_b})")
    new_a = min(max(tps_a - penalty_a + penalty_b, Decimal("0.0")), total)
    return new_a, total - new_a
