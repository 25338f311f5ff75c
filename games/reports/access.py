"""Who may do what with a reported game: its sides, its rulers, organisers, staff."""

from __future__ import annotations

from typing import Any

from games import hooks
from games.models import (
    GameReport,
    ReportedGame,
    ReportRole,
)
from players.models import Player
from players.roles import is_admin, is_organiser, player_of
from players.types import User

# --- Who answers for a reported game --------------------------------------------------------


def authority_of(reported: ReportedGame) -> tuple[hooks.ReportAuthority | None, Any]:
    extensions = reported.extensions or {}
    for name, authority in hooks.report_authorities().items():
        if name in extensions:
            return authority, extensions[name]
    return None, None


def _authority_allows(actor: User, reported: ReportedGame, ask: str) -> bool:
    """Staff for every game; otherwise the authority of its championship, asked ``ask``."""
    if is_admin(actor):
        return True
    authority, value = authority_of(reported)
    return (
        authority is not None
        and bool(actor and actor.is_authenticated)
        and getattr(authority, ask)(actor, value)
    )


def may_rule(actor: User, reported: ReportedGame) -> bool:
    """The championship's controllers and organisers for its games; staff for every game."""
    return _authority_allows(actor, reported, "may_rule")


def may_reopen(actor: User, reported: ReportedGame) -> bool:
    """The championship's organisers for its games; staff for every game."""
    return _authority_allows(actor, reported, "may_reopen")


def _sides(reported: ReportedGame) -> list[set[int]]:
    """The player ids of each side: pairs partners (seats 0+2, 1+3) are one side."""
    seats = list(reported.seat_players or [])
    if len(seats) == 4 and reported.is_pairs:
        return [{seats[0], seats[2]}, {seats[1], seats[3]}]
    return [{player_id} for player_id in seats]


def other_sides(reported: ReportedGame, player_id: int | None) -> set[int]:
    return {pid for side in _sides(reported) if player_id not in side for pid in side}


def opponents_without_account(reported: ReportedGame, version: GameReport) -> bool:
    others = other_sides(reported, version.side_player_id)
    return Player.objects.filter(pk__in=others, user__isnull=True).exists()


def may_confirm(actor: User, version: GameReport) -> bool:
    """Whether `actor` may answer this open version (confirm or dispute it).

    A player of another side; for a game against a player without an account, who cannot
    answer, an organiser or staff (or the championship's controllers) answer for them.
    """
    reported = version.reported_game
    own = player_of(actor)
    if own is not None and own.pk in other_sides(reported, version.side_player_id):
        return True
    if opponents_without_account(reported, version):
        return is_organiser(actor) or may_rule(actor, reported)
    return False


def may_see(actor: User, reported: ReportedGame) -> bool:
    if not (actor and actor.is_authenticated):
        return False
    own = player_of(actor)
    if own is not None and own.pk in (reported.seat_players or []):
        return True
    if reported.versions.filter(author=actor).exists():
        return True
    return may_rule(actor, reported) or (is_organiser(actor) and _has_accountless(reported))


def _has_accountless(reported: ReportedGame) -> bool:
    return Player.objects.filter(pk__in=reported.seat_players, user__isnull=True).exists()


# --- Filing versions ------------------------------------------------------------------------


def role_of(actor: User, seat_players: list[int], reported: ReportedGame | None) -> ReportRole:
    """Staff rule at once; someone not seated was vouched for (the championship's staff);
    a seated player is a side, even when they also control the championship."""
    if actor is None or is_admin(actor):
        return ReportRole.STAFF  # no submitter: an operator's import
    own = player_of(actor)
    if own is None or own.pk not in seat_players:
        return ReportRole.CONTROLLER
    return ReportRole.SIDE


def needs_agreement(reported: ReportedGame, players_count: int) -> bool:
    """Match games, and casual games a rating takes (two players, or pairs)."""
    if reported.match_id is not None:
        return True
    return players_count == 2 or reported.is_pairs
