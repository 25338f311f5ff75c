"""Team matches: one mini-match per board, decided on the TPs summed over every board.

Board 1 of one team plays board 1 of the other, and so on; each board plays the same planned
number of games. The team match is decided on the sum of all boards' TPs, ends early once the
lead cannot be caught (lead > 20 × games still to play in the whole team match), and a tie on
TPs after every planned game goes to the tie-breaks the event names, in order:

- `boards_won`: more boards won (a board is won on its own summed TPs);
- `board_1`: the better result on board 1;
- `extra_games`: single extra games on board 1, the TPs of the extra games deciding, up to
  `max_extra_games` of them (it must come last: it is played, not computed).

Level after every tie-break: not decided (`level_needs_ruling`), an organiser rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .errors import FormatError, Message, gettext_noop
from .points import GAME_TPS

ZERO = Decimal("0.0")

TEAM_TIEBREAKS: Mapping[str, str] = {
    "boards_won": gettext_noop("More boards won"),
    "board_1": gettext_noop("The better result on board 1"),
    "extra_games": gettext_noop("Extra games on board 1"),
}
DEFAULT_TEAM_TIEBREAKS = ("boards_won", "board_1", "extra_games")
MIN_ROSTER = 5  # a team's roster has at least five players


class TeamReason(StrEnum):
    """Why a team match stands where it does (stable codes, stored as the match's reason)."""

    IN_PROGRESS = "in_progress"
    DECIDED_EARLY = "decided_early"
    DECIDED_ON_TPS = "decided_on_tps"
    DECIDED_ON_BOARDS_WON = "decided_on_boards_won"
    DECIDED_ON_BOARD_1 = "decided_on_board_1"
    EXTRA_GAME_NEEDED = "extra_game_needed"
    DECIDED_IN_EXTRA_GAMES = "decided_in_extra_games"
    LEVEL_NEEDS_RULING = "level_needs_ruling"


def team_tiebreaks_check(keys: Sequence[str]) -> tuple[str, ...]:
    """The event's tie-break list, checked: known keys, none twice, extra games last."""
    keys = tuple(keys)
    unknown = [k for k in keys if k not in TEAM_TIEBREAKS]
    if unknown:
        raise FormatError(
            gettext_noop("unknown team tie-breaks: %(unknown)s (known: %(known)s)"),
            unknown=", ".join(map(str, unknown)),
            known=", ".join(TEAM_TIEBREAKS),
        )
    if len(set(keys)) != len(keys):
        raise FormatError(gettext_noop("a team tie-break is named twice"))
    if "extra_games" in keys and keys[-1] != "extra_games":
        raise FormatError(gettext_noop("extra games on board 1 must be the last tie-break"))
    return keys


@dataclass(frozen=True)
class TeamMatchRules:
    boards: int
    games_per_board: int
    tiebreaks: tuple[str, ...] = DEFAULT_TEAM_TIEBREAKS
    max_extra_games: int = 3

    def __post_init__(self) -> None:
        if self.boards < 1:
            raise FormatError(
                gettext_noop("a team match needs at least one board (got %(boards)s)"),
                boards=self.boards,
            )
        if self.games_per_board < 1:
            raise FormatError(
                gettext_noop("a board needs at least one game (got %(games)s)"),
                games=self.games_per_board,
            )
        if self.max_extra_games < 0:
            raise FormatError(gettext_noop("extra games cannot be negative"))
        team_tiebreaks_check(self.tiebreaks)

    @property
    def planned_games(self) -> int:
        return self.boards * self.games_per_board

    @property
    def tps_at_stake(self) -> Decimal:
        return GAME_TPS * self.planned_games


@dataclass(frozen=True)
class BoardState:
    board: int  # 1-based
    totals: tuple[Decimal, Decimal]  # the planned games' TPs
    games_played: int  # planned games played
    winner: int | None  # 0 / 1 when every planned game is played and the totals differ


@dataclass(frozen=True)
class TeamMatchState:
    totals: tuple[Decimal, Decimal]  # every game's TPs, extra games included
    planned_totals: tuple[Decimal, Decimal]  # what the match is decided on
    boards: tuple[BoardState, ...]
    games_played: int
    games_left: int  # planned games still to play, all boards
    extra_games_played: int
    extra_totals: tuple[Decimal, Decimal]
    decided: bool
    winner: int | None
    reason: TeamReason
    running: tuple[tuple[Decimal, Decimal], ...]  # the planned totals after each board

    @property
    def lead(self) -> Decimal:
        return abs(self.planned_totals[0] - self.planned_totals[1])


def _sum(games: Sequence[tuple[Decimal, Decimal]]) -> tuple[Decimal, Decimal]:
    return (sum((g[0] for g in games), ZERO), sum((g[1] for g in games), ZERO))


def _side(a: Decimal, b: Decimal) -> int | None:
    return 0 if a > b else 1 if b > a else None


def team_match_state(
    boards: Sequence[Sequence[tuple[Decimal, Decimal]]], rules: TeamMatchRules
) -> TeamMatchState:
    """The state of a team match from each board's games in order (board 1 first).

    Board 1 may hold more than the planned games: the extra games of the `extra_games`
    tie-break, which count only once they are due.
    """
    if len(boards) != rules.boards:
        raise FormatError(
            gettext_noop("a team match of %(boards)s boards got %(got)s boards"),
            boards=rules.boards,
            got=len(boards),
        )
    per = rules.games_per_board
    for number, games in enumerate(boards, start=1):
        for tps_a, tps_b in games:
            if tps_a + tps_b != GAME_TPS or min(tps_a, tps_b) < 0:
                raise FormatError(
                    gettext_noop("a game on board %(board)s does not share %(tps)s TPs"),
                    board=number,
                    tps=GAME_TPS,
                )
        if number > 1 and len(games) > per:
            raise FormatError(
                gettext_noop("board %(board)s has %(games)s games; it plays %(plays)s"),
                board=number,
                games=len(games),
                plays=per,
            )
    extra = list(boards[0][per:])
    board_states = []
    running = []
    acc = (ZERO, ZERO)
    for number, games in enumerate(boards, start=1):
        planned = list(games[:per])
        totals = _sum(planned)
        acc = (acc[0] + totals[0], acc[1] + totals[1])
        running.append(acc)
        done = len(planned) == per
        board_states.append(
            BoardState(number, totals, len(planned), _side(*totals) if done else None)
        )
    planned_totals = acc
    games_left = sum(per - s.games_played for s in board_states)
    games_played = sum(s.games_played for s in board_states) + len(extra)
    extra_totals = _sum(extra)
    all_totals = (planned_totals[0] + extra_totals[0], planned_totals[1] + extra_totals[1])

    def state(decided: bool, winner: int | None, reason: TeamReason) -> TeamMatchState:
        return TeamMatchState(
            totals=all_totals,
            planned_totals=planned_totals,
            boards=tuple(board_states),
            games_played=games_played,
            games_left=games_left,
            extra_games_played=len(extra),
            extra_totals=extra_totals,
            decided=decided,
            winner=winner,
            reason=reason,
            running=tuple(running),
        )

    leader = _side(*planned_totals)
    lead = abs(planned_totals[0] - planned_totals[1])
    if games_left:
        if extra:
            raise FormatError(
                gettext_noop("an extra game on board 1 before every planned game is played")
            )
        if lead > GAME_TPS * games_left:
            return state(True, leader, TeamReason.DECIDED_EARLY)
        return state(False, None, TeamReason.IN_PROGRESS)
    if leader is not None:
        if extra:
            raise FormatError(
                gettext_noop("an extra game on board 1, but the match was decided on TPs")
            )
        return state(True, leader, TeamReason.DECIDED_ON_TPS)
    for key in rules.tiebreaks:
        if key == "extra_games":
            if len(extra) > rules.max_extra_games:
                raise FormatError(
                    gettext_noop("more than %(extra)s extra games on board 1"),
                    extra=rules.max_extra_games,
                )
            for played in range(1, len(extra)):
                if _side(*_sum(extra[:played])) is not None:
                    raise FormatError(
                        gettext_noop("an extra game on board 1 after the match was decided")
                    )
            winner = _side(*extra_totals)
            if winner is not None:
                return state(True, winner, TeamReason.DECIDED_IN_EXTRA_GAMES)
            if len(extra) < rules.max_extra_games:
                return state(False, None, TeamReason.EXTRA_GAME_NEEDED)
            return state(False, None, TeamReason.LEVEL_NEEDS_RULING)
        if key == "boards_won":
            won = [sum(1 for s in board_states if s.winner == side) for side in (0, 1)]
            winner, reason = (
                _side(Decimal(won[0]), Decimal(won[1])),
                TeamReason.DECIDED_ON_BOARDS_WON,
            )
        else:  # board_1
            winner, reason = _side(*board_states[0].totals), TeamReason.DECIDED_ON_BOARD_1
        if winner is not None:
            if extra:
                raise FormatError(
                    gettext_noop("an extra game on board 1, but a tie-break decided the match")
                )
            return state(True, winner, reason)
    if extra:
        raise FormatError(
            gettext_noop("an extra game on board 1, but the event plays no extra games")
        )
    return state(False, None, TeamReason.LEVEL_NEEDS_RULING)


def board_game_allowed(state: TeamMatchState, rules: TeamMatchRules, board: int) -> Message | None:
    """Why one more game on `board` (1-based) cannot count now (None: it can)."""
    if not 1 <= board <= rules.boards:
        return Message(gettext_noop("there is no board %(board)s"), board=board)
    if state.reason is TeamReason.EXTRA_GAME_NEEDED:
        return None if board == 1 else Message(gettext_noop("only board 1 plays on (extra games)"))
    if state.boards[board - 1].games_played >= rules.games_per_board:
        return Message(
            gettext_noop("board %(board)s has played its %(games)s games"),
            board=board,
            games=rules.games_per_board,
        )
    return None
