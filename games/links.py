"""How game pages name what a game was played for, without importing the app that knows.

A record submitted for a tournament match carries the match id in its extensions; `games` cannot
import `tournaments` to name it, so `tournaments` registers a function (in its AppConfig.ready)
that takes match ids and answers, in one query, each match's label ("Ana v Bela (Round 2,
World Open)") and page address. Ids it cannot see or does not know are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class MatchLink:
    label: str
    url: str


MatchNamer = Callable[[Iterable[int]], dict[int, MatchLink]]
_namers: list[MatchNamer] = []


def register_match_links(namer: MatchNamer) -> None:
    if namer not in _namers:
        _namers.append(namer)


def match_links(match_ids: Iterable[int]) -> dict[int, MatchLink]:
    """Labels and addresses of these matches; empty when no app names matches."""
    wanted = {int(match_id) for match_id in match_ids if isinstance(match_id, int)}
    found: dict[int, MatchLink] = {}
    if wanted:
        for namer in _namers:
            found.update(namer(wanted))
    return found


def match_link(match_id: object) -> MatchLink | None:
    """The label and address of one match (a record's `match` extension), if known."""
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        return None
    return match_links([match_id]).get(match_id)
