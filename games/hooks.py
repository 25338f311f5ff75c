"""Extension points that higher apps register into, so `games` never imports them.

A submission may carry extra fields (such as `match`). Each is declared here by the app that
understands it, in its AppConfig.ready: `validate` checks the value for this actor and these
seated players and returns what to store (or raises ValidationError / PermissionDenied).
An extension that `vouches_for_submitter` has checked that the actor may submit this game
(e.g. championship staff for its match), so the "you played in it" check is not needed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SubmissionExtension:
    name: str
    validate: Callable[..., Any]
    help_text: str = ""
    vouches_for_submitter: bool = False


_extensions: dict[str, SubmissionExtension] = {}


def register_submission_extension(extension: SubmissionExtension) -> None:
    _extensions[extension.name] = extension


def submission_extensions() -> dict[str, SubmissionExtension]:
    return dict(_extensions)


# Filters a higher app applies to every public list and page of games: e.g. tournaments hides
# the games of championships the viewer may not see. Each takes (viewer, queryset of Game).
_game_visibility: list[Callable[[Any, Any], Any]] = []


def register_game_visibility(visible: Callable[[Any, Any], Any]) -> None:
    if visible not in _game_visibility:
        _game_visibility.append(visible)


def game_visibility_filters() -> list[Callable[[Any, Any], Any]]:
    return list(_game_visibility)


# Who answers for the reports of games submitted with one extension: tournaments registers
# `match` (the championship's controllers rule, its organisers reopen, and who may not see the
# championship does not see its reports). Games with none of these extensions are casual: site
# staff rule and reopen. Each callable takes the extension's stored value (the match id) first.
@dataclass(frozen=True)
class ReportAuthority:
    extension: str
    may_rule: Callable[[Any, Any], bool]  # (actor, value)
    may_reopen: Callable[[Any, Any], bool]  # (actor, value)
    may_see: Callable[[Any, Any], bool]  # (actor, value): the championship is visible to them
    rulers: Callable[[Any], list]  # value -> the users to tell about a dispute
    audit_ids: Callable[[Any], dict]  # value -> {"championship_id": ..., "event_id": ...}
    seat_players: Callable[[Any], list]  # value -> the Players of seats 0 and 1 (score sheets)
    label: Callable[[Any], str]  # value -> how people name it ("Match 3 of the Open")


_authorities: dict[str, ReportAuthority] = {}


def register_report_authority(authority: ReportAuthority) -> None:
    _authorities[authority.extension] = authority


def report_authorities() -> dict[str, ReportAuthority]:
    return dict(_authorities)
