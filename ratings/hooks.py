"""Extension points that higher apps register into, so `ratings` never imports them.

A tournament change (`RatingChange.event_id`, `EloStanding.event_id`) names an event that
`tournaments` owns. Ratings pages show people the event's name, not its id: `tournaments`
registers, in its AppConfig.ready, a reader that takes event ids and returns their names
(one query for any number of ids).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

EventNames = Callable[[Iterable[int]], dict[int, str]]

_event_names: list[EventNames] = []


def register_event_names(reader: EventNames) -> None:
    if reader not in _event_names:
        _event_names.append(reader)


def event_names(event_ids: Iterable[int]) -> dict[int, str]:
    """The names of these events, by id, from whichever app registered a reader."""
    ids = sorted({i for i in event_ids if i is not None})
    names: dict[int, str] = {}
    if not ids:
        return names
    for reader in _event_names:
        names.update(reader(ids))
    return names
