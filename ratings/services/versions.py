"""Storing what a replay of a timeline computed: new first versions and new versions of steps
(append-only rows; by COPY where nobody needs their ids), and the Rating rows of the players
moved (see ``ratings.services.timeline``)."""

from __future__ import annotations

import datetime as dt
from contextlib import ExitStack
from dataclasses import dataclass, field

from django.db import connection
from django.utils import timezone

from players.types import User
from ratings.models import ChangeReason, Rating, RatingChange, RatingSystem
from ratings.params import current_version
from ratings.services.audit import acting_user
from ratings.services.stored import StoredEvent, StoredRow
from ratings.systems.replay import Replayed, Standing


@dataclass
class Outcome:
    """What a replay wrote: new first versions, new versions, and the players moved."""

    created: list[RatingChange] = field(default_factory=list)  # first versions (games, adjustments)
    versions: list[RatingChange] = field(default_factory=list)  # replay and revert rows
    ratings: dict[int, Standing] = field(default_factory=dict)
    events_replayed: int = 0


@dataclass
class Writer:
    """Turns replayed events into rows; the reason and note of new versions are the caller's."""

    system: str
    voiding: set[int] = field(default_factory=set)  # first versions being reverted now
    actor: User | None = None
    note: str = ""
    adjustment_note: str = ""
    flush_every: int | None = None  # write as it goes, keeping only counts (the recompute)
    copy: bool = False  # every new row by COPY (the recompute)
    copy_versions: bool = False  # recalculated steps by COPY (applying games)
    # The recompute: COPY rows as they come, in one COPY kept open while the replay goes on
    # (see _CopyStream); whoever replays calls ``pause`` before the connection is used again.
    stream: bool = False
    _copied: list[dict] = field(default_factory=list)
    _stream: _CopyStream | None = None
    replayed_rows: int = 0
    outcome: Outcome = field(default_factory=Outcome)
    touched: set[int] = field(default_factory=set)
    last_game: dict[int, tuple[int, dt.datetime]] = field(default_factory=dict)
    written: int = 0

    def take(self, replayed: Replayed) -> None:
        event = replayed.event
        source, stored = event.ref if isinstance(event.ref, tuple) else (event.ref, None)
        if event.is_game and not event.void:
            for pid in event.players:
                self.last_game[pid] = (event.key[2], event.key[0])
        if replayed.steps is None:
            return
        self.outcome.events_replayed += 1
        if not replayed.differs and not (stored and self._voiding(stored)):
            return
        for pid, step in replayed.steps.items():
            row = stored.rows.get(pid) if stored else None
            if row is not None and row.step == step and not self._voiding_row(row):
                continue
            self.touched.add(pid)
            values = {
                "player_id": pid,
                "system": self.system,
                "period": event.period,
                "before": step.before,
                "after": step.after,
                "delta": step.after - step.before,
                "games_delta": step.games_after - step.games_before,
                "games_after": step.games_after,
                "at": event.key[0],
                "game_id": event.key[2] if event.is_game else None,
                "note": self.note,
                "actor_id": self._actor_id,
            }
            if row is None:
                values["reason"] = ChangeReason.GAME if event.is_game else ChangeReason.ADJUSTMENT
                if event.is_game:
                    values["note"], values["actor_id"] = "", None
                else:
                    values["note"] = self.adjustment_note
                if self.copy:  # the recompute: nothing needs the new rows' ids
                    self._copy(values)
                else:
                    self.outcome.created.append(RatingChange(**values))
                continue
            values["replaces_id"] = row.id
            values["origin_id"] = row.origin
            if self._voiding_row(row):
                values["reason"] = ChangeReason.REVERT
                values["reverts_id"] = row.origin
                self.outcome.versions.append(RatingChange(**values))
            elif self.copy or self.copy_versions:
                values["reason"] = ChangeReason.REPLAY
                self._copy(values)
            else:
                values["reason"] = ChangeReason.REPLAY
                self.outcome.versions.append(RatingChange(**values))
        if self.flush_every and self.pending >= self.flush_every:
            self.flush()

    def _copy(self, values: dict) -> None:
        if self._stream is None:
            if not (self.stream and connection.vendor == "postgresql"):
                self._copied.append(values)
                return
            self._stream = _CopyStream()
        self._stream.write(values)
        self.written += 1
        if values["reason"] == ChangeReason.REPLAY:
            self.replayed_rows += 1

    def pause(self, error: BaseException | None = None) -> None:
        """End the open COPY, if any, so that the connection can be used (the next chunk of a
        streamed read, any other statement); the next row opens another. With ``error`` the
        COPY is abandoned (the transaction is failing anyway)."""
        if self._stream is not None:
            self._stream.close(error)

    @property
    def pending(self) -> int:
        return len(self.outcome.created) + len(self.outcome.versions) + len(self._copied)

    @property
    def _actor_id(self) -> int | None:
        actor = acting_user(self.actor)
        return actor.pk if actor is not None else None

    def flush(self) -> None:
        """Write the rows gathered so far (first versions before the versions superseding);
        rows nobody needs the ids of go by COPY, the cheapest way into PostgreSQL."""
        self.pause()
        RatingChange.objects.bulk_create(self.outcome.created, batch_size=5000)
        RatingChange.objects.bulk_create(self.outcome.versions, batch_size=5000)
        _copy_changes(self._copied)
        self.written += self.pending
        self.replayed_rows += sum(1 for v in self._copied if v["reason"] == ChangeReason.REPLAY)
        self._copied = []
        if self.flush_every:
            self.outcome.created, self.outcome.versions = [], []

    def _voiding(self, stored: StoredEvent) -> bool:
        return bool(self.voiding) and any(self._voiding_row(row) for row in stored.rows.values())

    def _voiding_row(self, row: StoredRow) -> bool:
        return row.origin in self.voiding and row.reason != ChangeReason.REVERT

    def store(self, known: dict[int, Standing]) -> Outcome:
        """Write the rows, then the Rating rows of every player moved (where their timeline
        ends now)."""
        self.flush()
        self.outcome.ratings = {pid: known[pid] for pid in self.touched}
        store_ratings(self.system, self.outcome.ratings, self.last_game)
        return self.outcome


_COPY_COLUMNS = (
    "player_id",
    "system",
    "reason",
    "game_id",
    "event_id",
    "period",
    "before",
    "after",
    "delta",
    "games_delta",
    "reverts_id",
    "actor_id",
    "note",
    "params_version",
    "created",
    "at",
    "games_after",
    "replaces_id",
    "origin_id",
)


def _copy_sql() -> str:
    columns = ", ".join(f'"{c}"' for c in _COPY_COLUMNS)
    return f'COPY "{RatingChange._meta.db_table}" ({columns}) FROM STDIN'


def _copy_row(values: dict, fallback: dict) -> list:
    """A row in COPY's column order; a column ``values`` leaves out takes ``fallback``'s value
    (the parameter-set version, the time written), else null."""
    return [values[c] if c in values else fallback.get(c) for c in _COPY_COLUMNS]


def _copy_changes(rows: list[dict]) -> None:
    """Append rows to the changes table with COPY (PostgreSQL), or bulk inserts elsewhere."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create([RatingChange(**v) for v in rows], batch_size=5000)
        return
    fallback = {"params_version": current_version(), "created": timezone.now()}
    with connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own cursor, for COPY
        with cursor.copy(_copy_sql()) as copy:
            for values in rows:
                copy.write_row(_copy_row(values, fallback))


class _CopyStream:
    """One COPY into the changes table kept open while a replay goes on.

    PostgreSQL stores each row as it arrives (a heap tuple and a dozen index entries, the
    larger part of a recompute's cost) on one core while Python replays the next events on the
    other; written in batches instead, each side waited for the other. A connection in COPY can
    do nothing else, so ``close`` ends it before any other use; the next row opens another.
    """

    def __init__(self) -> None:
        self._open: ExitStack | None = None
        self._copy = None
        self._fallback = {"params_version": current_version(), "created": timezone.now()}

    def write(self, values: dict) -> None:
        if self._open is None:
            stack = ExitStack()
            wrapper = stack.enter_context(connection.cursor())
            self._copy = stack.enter_context(wrapper.cursor.copy(_copy_sql()))
            self._open = stack
        self._copy.write_row(_copy_row(values, self._fallback))

    def close(self, error: BaseException | None = None) -> None:
        stack, self._open, self._copy = self._open, None, None
        if stack is None:
            return
        if error is None:
            stack.close()
        else:
            stack.__exit__(type(error), error, error.__traceback__)


def store_ratings(
    system: str, standings: dict[int, Standing], last_game: dict[int, tuple[int, dt.datetime]]
) -> None:
    if not standings:
        return
    missing = [pid for pid in standings if pid not in last_game]
    existing = (
        {r.player_id: r for r in Rating.objects.filter(system=system, player_id__in=missing)}
        if missing
        else {}
    )
    rows = []
    for pid, standing in standings.items():
        old = existing.get(pid)
        last = last_game.get(pid)
        rows.append(
            Rating(
                player_id=pid,
                system=system,
                value=standing.value,
                games=standing.games,
                period=standing.period if system == RatingSystem.MONTHLY else "",
                last_game_id=last[0] if last else (old.last_game_id if old else None),
                last_played_at=last[1] if last else (old.last_played_at if old else None),
            )
        )
    Rating.objects.bulk_create(
        rows,
        batch_size=5000,
        update_conflicts=True,
        unique_fields=["player", "system"],
        update_fields=["value", "games", "period", "last_game", "last_played_at", "updated"],
    )
