"""Match state: who leads a match on summed TPs, whether it is over, and what is still to play.

Tantrix decides matches on summed tournament points, not games won. A match has a planned number
of games, may end early when the trailing side can no longer change the result, and may add
single extra games when the lead after the planned games is under a margin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .errors import FormatError, gettext_noop
from .points import GAME_TPS


class MatchReason(StrEnum):
    """Why a match stands where it does (stable codes for storage and templates)."""

    IN_PROGRESS = "in_progress"  # planned games still to play
    EXTRA_GAME_NEEDED = "extra_game_needed"  # planned games done, lead under the margin
    DECIDED_EARLY = "decided_early"  # the trailing side cannot change the result any more
    DECIDED_ON_TPS = "decided_on_tps"  # higher total after the planned games
    DECIDED_IN_EXTRA_GAMES = "decided_in_extra_games"  # margin reached in an extra game
    DECIDED_AT_EXTRA_CAP = "decided_at_extra_cap"  # cap hit under the margin: higher total wins
    LEVEL_NEEDS_RULING = "level_needs_ruling"  # exactly level with nothing left to play


# An extra game after a match no longer asked for one: the sentence names the state it was in.
_ALREADY_SETTLED: Mapping[MatchReason, str] = {
    MatchReason.IN_PROGRESS: gettext_noop(
        "game %(number)s is an extra game, but the match was already in progress after game "
        "%(before)s"
    ),
    MatchReason.DECIDED_EARLY: gettext_noop(
        "game %(number)s is an extra game, but the match was already decided early after game "
        "%(before)s"
    ),
    MatchReason.DECIDED_ON_TPS: gettext_noop(
        "game %(number)s is an extra game, but the match was already decided on tps after game "
        "%(before)s"
    ),
    MatchReason.DECIDED_IN_EXTRA_GAMES: gettext_noop(
        "game %(number)s is an extra game, but the match was already decided in extra games "
        "after game %(before)s"
    ),
    MatchReason.DECIDED_AT_EXTRA_CAP: gettext_noop(
        "game %(number)s is an extra game, but the match was already decided at extra cap "
        "after game %(before)s"
    ),
    MatchReason.LEVEL_NEEDS_RULING: gettext_noop(
        "game %(number)s is an extra game, but the match was already level needs ruling after "
        "game %(before)s"
    ),
}


@dataclass(frozen=True)
class MatchRules:
    """How many games a match has and when extra games are played.

    `extra_margin` and `max_extra_games` go together: after the planned games, while the lead is
    under `extra_margin` TPs, single extra games are played, at most `max_extra_games` of them.
    Leave `max_extra_games` at 0 for a match without extra games.
    """

    planned_games: int
    extra_margin: Decimal = Decimal(0)
    max_extra_games: int = 0

    def __post_init__(self) -> None:
        if self.planned_games < 1:
            raise FormatError(
                gettext_noop("a match needs at least one game (got %(games)s)"),
                games=self.planned_games,
            )
        if self.max_extra_games < 0:
            raise FormatError(
                gettext_noop("extra games cannot be negative (got %(games)s)"),
                games=self.max_extra_games,
            )
        if self.max_extra_games and self.extra_margin <= 0:
            raise FormatError(gettext_noop("extra games need a positive TP margin to play for"))

    @property
    def has_extra_games(self) -> bool:
        return self.max_extra_games > 0

    @property
    def max_games(self) -> int:
        return self.planned_games + self.max_extra_games


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after the games played so far.

    `winner` is 0 (side A), 1 (side B) or None. `games_needed` counts games that must still be
    played: the remaining planned games, or 1 while an extra game is due (extra games are played
    one at a time, so we never promise more than the next one). A level match with nothing left to
    play is not decided: `reason` is `LEVEL_NEEDS_RULING` and an organiser must rule.
    `games_played` includes `extra_games_played`.
    """

    totals: tuple[Decimal, Decimal]
    games_played: int
    games_needed: int
    decided: bool
    winner: int | None
    reason: MatchReason

    extra_games_played: int

    @property
    def lead(self) -> Decimal:
        return abs(self.totals[0] - self.totals[1])


def _leader(a: Decimal, b: Decimal) -> int | None:
    if a == b:
        return None
    return 0 if a > b else 1


def _state(
    totals: tuple[Decimal, Decimal],
    played: int,
    needed: int,
    reason: MatchReason,
    rules: MatchRules,
) -> MatchState:
    decided = reason in _DECIDED
    return MatchState(
        totals=totals,
        games_played=played,
        games_needed=needed,
        decided=decided,
        winner=_leader(*totals) if decided else None,
        reason=reason,
        extra_games_played=max(0, played - rules.planned_games),
    )


_DECIDED = frozenset(
    {
        MatchReason.DECIDED_EARLY,
        MatchReason.DECIDED_ON_TPS,
        MatchReason.DECIDED_IN_EXTRA_GAMES,
        MatchReason.DECIDED_AT_EXTRA_CAP,
    }
)


def _clinched(lead: Decimal, planned_left: int, rules: MatchRules) -> bool:
    """Whether the remaining planned games cannot change the result.

    The Tantrix rule is "lead > 20 × games left". With extra games the trailing side has one more
    way back: cutting the lead under the margin forces extra games it might win. So a match with
    extra games is only over early when even losing every remaining game 0–20 leaves the leader
    at least `extra_margin` ahead. Without extra games this is exactly the published rule.
    """
    reachable = GAME_TPS * planned_left
    if rules.has_extra_games:
        return lead - reachable >= rules.extra_margin
    return lead > reachable


def match_state(games: Sequence[tuple[Decimal, Decimal]], rules: MatchRules) -> MatchState:
    """Sum the TPs of the games played (in order) and say whether the match is over.

    Each game is (side A's TPs, side B's TPs) after any time penalties, sharing 20 TPs.
    Planned games played after the match was decided early still count in the totals (they
    cannot change the winner); an extra game played after the match was decided is an error.
    """
    totals = (Decimal("0.0"), Decimal("0.0"))
    for number, (tps_a, tps_b) in enumerate(games, start=1):
        if tps_a < 0 or tps_b < 0 or tps_a + tps_b != GAME_TPS:
            raise FormatError(
                gettext_noop(
                    "game %(number)s has %(tps_a)s–%(tps_b)s TPs; a game shares %(tps)s TPs"
                ),
                number=number,
                tps_a=tps_a,
                tps_b=tps_b,
                tps=GAME_TPS,
            )
        if number > rules.max_games:
            raise FormatError(
                gettext_noop(
                    "game %(number)s is one too many: this match has %(planned)s planned "
                    "and at most %(extra)s extra games"
                ),
                number=number,
                planned=rules.planned_games,
                extra=rules.max_extra_games,
            )
        if number > rules.planned_games:
            # An extra game is only played when the state before it asked for one.
            before = _evaluate(totals, number - 1, rules)
            if before.reason is not MatchReason.EXTRA_GAME_NEEDED:
                raise FormatError(_ALREADY_SETTLED[before.reason], number=number, before=number - 1)
        totals = (totals[0] + tps_a, totals[1] + tps_b)
    return _evaluate(totals, len(games), rules)


def _evaluate(totals: tuple[Decimal, Decimal], played: int, rules: MatchRules) -> MatchState:
    lead = abs(totals[0] - totals[1])
    planned_left = rules.planned_games - played
    if planned_left > 0:
        if _clinched(lead, planned_left, rules):
            return _state(totals, played, 0, MatchReason.DECIDED_EARLY, rules)
        return _state(totals, played, planned_left, MatchReason.IN_PROGRESS, rules)

    extra_played = played - rules.planned_games
    if not rules.has_extra_games or lead >= rules.extra_margin:
        if lead == 0:
            return _state(totals, played, 0, MatchReason.LEVEL_NEEDS_RULING, rules)
        reason = MatchReason.DECIDED_IN_EXTRA_GAMES if extra_played else MatchReason.DECIDED_ON_TPS
        return _state(totals, played, 0, reason, rules)
    if extra_played < rules.max_extra_games:
        return _state(totals, played, 1, MatchReason.EXTRA_GAME_NEEDED, rules)
    if lead == 0:
        return _state(totals, played, 0, MatchReason.LEVEL_NEEDS_RULING, rules)
    return _state(totals, played, 0, MatchReason.DECIDED_AT_EXTRA_CAP, rules)
