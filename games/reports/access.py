"""Who may do what with a reported game: its sides, its rulers, organisers, staff.

Authority over a match game's report is authority over its championship (the `ReportAuthority`
that tournaments registers): its organisers and controllers, and site staff. The author of a
report never answers it, and a party to a game (a player of it, or whoever reported it) never
rules on it nor reopens its ruling, staff excepted (docs/game-records.md, "Reports").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from games import hooks
from games.models import (
    GameReport,
    ReportedGame,
    ReportKind,
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


def _authority_asks(actor: User, reported: ReportedGame, ask: str) -> bool:
    """The authority of the game's championship, asked ``ask`` (False for a casual game)."""
    authority, value = authority_of(reported)
    return (
        authority is not None
        and bool(actor and actor.is_authenticated)
        and getattr(authority, ask)(actor, value)
    )


def is_party(actor: User, reported: ReportedGame) -> bool:
    """Whether `actor` is a party to the game: they play in it, or they reported it (wrote a
    version that is not a ruling). A party never judges their own game."""
    if not (actor and actor.is_authenticated):
        return False
    own = player_of(actor)
    if own is not None and own.pk in (reported.seat_players or []):
        return True
    return reported.versions.filter(author=actor).exclude(kind=ReportKind.RULING).exists()


def _judges(actor: User, reported: ReportedGame, ask: str) -> bool:
    """Staff for every game (their word is final, on their own games too: their submissions
    stand at once); otherwise the championship's authority, asked ``ask``, if the actor is not
    a party to the game."""
    if is_admin(actor):
        return True
    return _authority_asks(actor, reported, ask) and not is_party(actor, reported)


def may_rule(actor: User, reported: ReportedGame) -> bool:
    """The championship's controllers and organisers for its games, except a party to the
    game; staff for every game."""
    return _judges(actor, reported, "may_rule")


def may_reopen(actor: User, reported: ReportedGame) -> bool:
    """The championship's organisers for its games, except a party to the game; staff for
    every game."""
    return _judges(actor, reported, "may_reopen")


def _sides(reported: ReportedGame) -> list[set[int]]:
    """The player ids of each side: pairs partners (seats 0+2, 1+3) are one side."""
    seats = list(reported.seat_players or [])
    if len(seats) == 4 and reported.is_pairs:
        return [{seats[0], seats[2]}, {seats[1], seats[3]}]
    return [{player_id} for player_id in seats]


def other_sides(reported: ReportedGame, player_id: int | None) -> set[int]:
    return {pid for side in _sides(reported) if player_id not in side for pid in side}


def _accountless_opponents(reported: ReportedGame, version: GameReport) -> list[Player]:
    others = other_sides(reported, version.side_player_id)
    return list(Player.objects.filter(pk__in=others, user__isnull=True))


def opponents_without_account(reported: ReportedGame, version: GameReport) -> bool:
    return bool(_accountless_opponents(reported, version))


def _in_sight(actor: User, reported: ReportedGame) -> bool:
    """A game of a championship is seen by whoever sees the championship (an unpublished one:
    its organisers and controllers, and staff); a casual game by everyone signed in (who of
    them reads it is decided by the callers)."""
    authority, value = authority_of(reported)
    return authority is None or is_admin(actor) or bool(authority.may_see(actor, value))


def may_confirm(actor: User, version: GameReport) -> bool:
    """Whether `actor` may answer this version (confirm or dispute it).

    A player of another side. For a game against a player without an account, who cannot
    answer: for a match game the championship's controllers and organisers, for a casual game
    the organiser who entered that player; staff for every game. Never the version's author,
    nor a player of its own side, whatever role they hold (issue 26).
    """
    if not (actor and actor.is_authenticated):
        return False
    reported = version.reported_game
    if version.author_id is not None and version.author_id == actor.pk:
        return False
    own = player_of(actor)
    if own is not None and own.pk in _side_of(reported, version.side_player_id):
        return False
    if not _in_sight(actor, reported):
        return False
    if own is not None and own.pk in other_sides(reported, version.side_player_id):
        return True
    accountless = _accountless_opponents(reported, version)
    if not accountless:
        return False
    if is_admin(actor):
        return True
    if authority_of(reported)[0] is not None:
        return may_rule(actor, reported)
    # A casual game: the organiser who entered the player answers for them, while an organiser.
    return is_organiser(actor) and any(p.created_by_id == actor.pk for p in accountless)


def _side_of(reported: ReportedGame, player_id: int | None) -> set[int]:
    for side in _sides(reported):
        if player_id in side:
            return side
    return set()


def may_see(actor: User, reported: ReportedGame) -> bool:
    """Who reads a reported game and its history: its players, whoever reported a version of
    it, whoever may answer or rule it (the championship's controllers and organisers, or for a
    casual game against a player without an account the organiser who entered them), staff.
    A game of a championship the actor may not see is not seen, as the championship is not."""
    if not (actor and actor.is_authenticated):
        return False
    if is_admin(actor):
        return True
    if not _in_sight(actor, reported):
        return False
    own = player_of(actor)
    if own is not None and own.pk in (reported.seat_players or []):
        return True
    if reported.versions.filter(author=actor).exists():
        return True
    if _authority_asks(actor, reported, "may_rule"):
        return True
    return is_organiser(actor) and _entered_by(actor, reported)


def _entered_by(actor: User, reported: ReportedGame) -> bool:
    """A casual game with a player without an account whom `actor` entered."""
    if authority_of(reported)[0] is not None:
        return False
    return Player.objects.filter(
        pk__in=reported.seat_players, user__isnull=True, created_by=actor
    ).exists()


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


# --- The named rules views declare and pages ask (issue 27) ---------------------------------


def party_refusal() -> str:
    # The same words as tournaments' refusal of a party's match ruling (one catalogue entry).
    return _(
        "You take part in it (you play in it or reported it): another of this championship's "
        "controllers or organisers, or the site staff, decides it."
    )


def rule_refusal(actor: User, reported: ReportedGame) -> str:
    """Why `actor` may not rule this game: a party to it, or not one of its rulers."""
    if is_party(actor, reported):
        return party_refusal()
    return _("Only the championship's controllers (staff for casual games) rule.")


def reopen_refusal_words(actor: User, reported: ReportedGame) -> str:
    """Why `actor` may not reopen this game's ruling: a party to it, or not its organiser."""
    if is_party(actor, reported):
        return party_refusal()
    return _("Only the championship's organisers (staff for casual games) reopen.")


def confirm_refusal(_actor: User = None, _version: GameReport | None = None) -> str:
    return _("Only the other side of this game may confirm it.")


def dispute_refusal(_actor: User = None, _version: GameReport | None = None) -> str:
    return _("Only the other side of this game may dispute it.")


# name -> (who may, on an object; the words of the refusal, or how to find them).
# GamesConfig.ready registers them (`tantrix_site.http.permissions`): the report pages and
# endpoints declare the one they need, the game page asks the same registry for its buttons,
# and the services keep their own checks with the same predicates and words (they stay the
# authority: the overdue sweep, commands and other services call them too).
RULES: dict[str, tuple[Callable[[User, Any], bool], Any]] = {
    "answer_report": (may_confirm, confirm_refusal),
    "rule_report": (may_rule, rule_refusal),
    "reopen_report": (may_reopen, reopen_refusal_words),
}
