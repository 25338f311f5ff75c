"""Teams: rosters, a team match's lineup, boards and state, and a team's results."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from players.models import AuditEntry, Player
from tournaments import formats
from tournaments.formats.teams import (
    DEFAULT_TEAM_TIEBREAKS,
    TeamMatchRules,
    TeamMatchState,
    team_match_state,
)
from tournaments.models import (
    AuditAction,
    Championship,
    Event,
    Match,
    MatchGame,
    RosterChangeKind,
    Team,
    TeamMember,
    sides_of,
)


def teams_of(championship: Championship) -> QuerySet[Team]:
    return championship.teams.select_related("captain", "deputy").order_by("name")


def team_roster(team: Team) -> list[TeamMember]:
    return list(team.members.select_related("player").order_by("board"))


@dataclass(frozen=True)
class RosterChange:
    """One line of a team's roster log: what changed, who changed it, when and why."""

    kind: str
    actor: Any
    before: list
    after: list
    reason: str
    created: dt.datetime

    def get_kind_display(self) -> str:
        return RosterChangeKind(self.kind).label


ROSTER_ACTIONS = (AuditAction.TEAM_CREATE, AuditAction.TEAM_ROSTER)


def roster_changes(team: Team) -> list[RosterChange]:
    """The team's roster log, newest first, read from the one place it is stored: the audit
    trail's `team_create` and `team_roster` entries. They name the team by id; the entries
    written before they did (migration 0013) by the team's name, unique in its championship."""
    entries = (
        AuditEntry.objects.filter(championship_id=team.championship_id, action__in=ROSTER_ACTIONS)
        .filter(Q(details__team=team.pk) | Q(details__team__isnull=True, target=team.name))
        .select_related("actor")
        .order_by("-created", "-id")
    )
    changes = []
    for entry in entries:
        details = entry.details if isinstance(entry.details, dict) else {}
        created = entry.action == AuditAction.TEAM_CREATE
        changes.append(
            RosterChange(
                kind=RosterChangeKind.CREATED if created else details.get("kind", ""),
                actor=entry.actor,
                before=[] if created else list(details.get("before") or []),
                after=list(details.get("roster" if created else "after") or []),
                reason=entry.reason,
                created=entry.created,
            )
        )
    return changes


def roster_ids(team: Team) -> list[int]:
    return list(team.members.order_by("board").values_list("player_id", flat=True))


def team_rules(event: Event) -> TeamMatchRules:
    return TeamMatchRules(
        boards=event.team_boards,
        games_per_board=event.games_per_match,
        tiebreaks=tuple(event.team_tiebreaks or DEFAULT_TEAM_TIEBREAKS),
    )


def team_state(match: Match, games: list) -> TeamMatchState:
    """A team match's state from its counted games (MatchGame rows with their boards)."""
    boards: list[list[tuple[Decimal, Decimal]]] = [[] for _ in range(match.event.team_boards)]
    for game in sorted(games, key=lambda g: g.number):
        boards[(game.board or 1) - 1].append((game.tps_a, game.tps_b))
    return team_match_state(boards, team_rules(match.event))


def match_lineup(match: Match) -> list[tuple[int, int, int]]:
    """(board, player of side A, player of side B) per board: the fixed lineup, or the two
    rosters' first boards as they stand. Empty while a side is not known."""
    fixed = list(match.boards.order_by("board").values_list("board", "player_a_id", "player_b_id"))
    if fixed:
        return fixed
    if match.entry_a is None or match.entry_b is None:
        return []
    boards = match.event.team_boards
    a = roster_ids(match.entry_a.team)[:boards]
    b = roster_ids(match.entry_b.team)[:boards]
    return [(n, pa, pb) for n, (pa, pb) in enumerate(zip(a, b, strict=False), start=1)]


def team_match_boards(match: Match) -> dict:
    """A team match's boards side by side: who plays whom (the fixed lineup, or the rosters'
    first boards as they stand), each board's games and totals, and the running total."""
    games = list(match.match_games.order_by("number"))
    state = team_state(match, games)
    lineup = match_lineup(match)
    names = dict(
        Player.objects.filter(pk__in={p for _, a, b in lineup for p in (a, b)}).values_list(
            "pk", "display_name"
        )
    )
    by_board: dict[int, list[MatchGame]] = {}
    for game in games:
        by_board.setdefault(game.board or 1, []).append(game)
    rows = []
    players = {board: (a, b) for board, a, b in lineup}
    for board_state in state.boards:
        a, b = players.get(board_state.board, (None, None))
        rows.append(
            {
                "board": board_state.board,
                "player_a": names.get(a, ""),
                "player_b": names.get(b, ""),
                "player_a_id": a,
                "player_b_id": b,
                "games": by_board.get(board_state.board, []),
                "tps_a": board_state.totals[0],
                "tps_b": board_state.totals[1],
                "games_played": board_state.games_played,
                "winner": board_state.winner,
                "running_a": state.running[board_state.board - 1][0],
                "running_b": state.running[board_state.board - 1][1],
            }
        )
    return {
        "rows": rows,
        "fixed": match.boards.exists(),
        "games_left": state.games_left,
        "extra_games": state.extra_games_played,
        "planned_a": state.planned_totals[0],
        "planned_b": state.planned_totals[1],
        "planned_games": match.event.team_boards * match.event.games_per_match,
        "at_stake": formats.GAME_TPS * match.event.team_boards * match.event.games_per_match,
    }


def team_results(team: Team) -> list[dict]:
    """The team's matches, newest first, with each board's result from the team's side."""
    matches = (
        Match.objects.filter(Q(entry_a__team=team) | Q(entry_b__team=team))
        .select_related("event", "round", *sides_of("entry_a"), *sides_of("entry_b"))
        .prefetch_related("boards__player_a", "boards__player_b", "match_games")
        .order_by("-event__stage", "-round__number", "-id")
    )
    result = []
    for match in matches:
        ours = 0 if match.entry_a and match.entry_a.team_id == team.pk else 1
        opponent = match.entry_b if ours == 0 else match.entry_a
        totals: dict[int, list] = {}
        for game in match.match_games.all():
            got = game.tps_a if ours == 0 else game.tps_b
            gave = game.tps_b if ours == 0 else game.tps_a
            row = totals.setdefault(game.board or 1, [Decimal("0.0"), Decimal("0.0"), 0])
            row[0] += got
            row[1] += gave
            row[2] += 1
        boards = []
        for board in match.boards.all():
            player, other = (
                (board.player_a, board.player_b) if ours == 0 else (board.player_b, board.player_a)
            )
            got, gave, played = totals.get(board.board, [Decimal("0.0"), Decimal("0.0"), 0])
            boards.append(
                {
                    "board": board.board,
                    "player": player,
                    "opponent": other,
                    "tps": got,
                    "tps_against": gave,
                    "games": played,
                }
            )
        result.append(
            {
                "match": match,
                "opponent": opponent,
                "tps": match.tps_a if ours == 0 else match.tps_b,
                "tps_against": match.tps_b if ours == 0 else match.tps_a,
                "won": match.winner_id is not None
                and match.winner_id == (match.entry_a_id if ours == 0 else match.entry_b_id),
                "boards": boards,
            }
        )
    return result
