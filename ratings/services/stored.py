"""A table's stored timeline as the replay reads it back: one current stored step per player
and event (``StoredRow``, a ``RatingChange`` row with ``at`` set and no ``replaced_by``), and the
stored rows of one event grouped together (``StoredEvent``). ``ratings.services.timeline`` reads
them; ``ratings.services.versions`` writes the versions that supersede them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import NamedTuple

from ratings.systems.replay import ADJUSTMENT, GAME, Step

STORED_ROW_FIELDS = (
    "id",
    "player_id",
    "game_id",
    "at_micros",
    "before",
    "after",
    "games_after",
    "games_delta",
    "period",
    "origin_id",
    "reason",
)


class StoredRow(NamedTuple):
    """One current stored step (the fields of ``STORED_ROW_FIELDS``). A named tuple rather than
    a frozen dataclass: the recompute makes one per stored step (a million per table for
    500,000 games), and a tuple is made several times faster."""

    id: int
    player_id: int
    game_id: int | None
    at: dt.datetime
    before: float
    after: float
    games_after: int | None
    games_delta: int
    period: str
    origin_id: int | None
    reason: str

    @property
    def origin(self) -> int:
        return self.origin_id or self.id

    @property
    def key(self) -> tuple[dt.datetime, int, int]:
        if self.game_id is not None:
            return (self.at, GAME, self.game_id)
        return (self.at, ADJUSTMENT, self.origin)

    @property
    def step(self) -> Step:
        games_after = self.games_after if self.games_after is not None else -1
        return Step(self.before, self.after, games_after - self.games_delta, games_after)


@dataclass
class StoredEvent:
    """The stored rows of one event, grouped (what ``merge_events`` attaches to an event)."""

    key: tuple
    rows: dict[int, StoredRow]

    @property
    def steps(self) -> dict[int, Step]:
        return {pid: row.step for pid, row in self.rows.items()}


def grouped_events(rows: Iterable[StoredRow]) -> Iterator[StoredEvent]:
    for key, group in groupby(rows, key=lambda r: r.key):
        yield StoredEvent(key, {row.player_id: row for row in group})
