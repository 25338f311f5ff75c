"""Reads that check the games' invariants on a whole database (``manage.py check_consistency``).

Each check returns the breaches it finds; none writes. The checks are set-based or walk the
tables in key order by chunks, so they cost a few queries per thousand games. ``Breach`` is
defined here, in the lowest app that has checks, and reused by ``ratings`` and ``tournaments``
(imports point down).

What the games promise (DESIGN.md, "How a result flows"; docs/architecture.md, "Adjudication"):

- no record stays ``pending`` or ``processing`` longer than GAME_RECORD_STALE_SECONDS: the sweep
  re-enqueues it (older ones are reported as *stuck*; younger ones are *in flight*);
- a final record carries its verdict; every ``valid`` record is a version of a reported game
  (games/reports/), and only a valid record has a ``Game`` (created once its result stands);
- a ``Game``'s seats are the record's ``seat_players`` in seat order, its winner and scores are
  the verdict's, and its ``played_at`` can be read back (finite, within Python's datetimes).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import Game, GameRecord, GameSeat, RecordStatus

CHUNK = 2000


@dataclass(frozen=True)
class Breach:
    """One broken invariant: a stable ``code``, a sentence for a person, the objects' ids."""

    code: str
    message: str
    ids: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "ids": self.ids}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


def chunks(queryset: QuerySet, size: int = CHUNK) -> Iterator[list]:
    """Rows of ``queryset`` (model instances or ``values()`` dicts with "id") by primary key
    ranges: keyset pagination, so a large table is read in bounded memory without a
    server-side cursor."""
    last = None
    while True:
        page = queryset.order_by("pk")
        if last is not None:
            page = page.filter(pk__gt=last)
        rows = list(page[:size])
        if not rows:
            return
        yield rows
        tail = rows[-1]
        last = tail["id"] if isinstance(tail, dict) else tail.pk


def _stale_before(now: dt.datetime) -> dt.datetime:
    return now - dt.timedelta(seconds=settings.GAME_RECORD_STALE_SECONDS)


def games_counts(*, now: dt.datetime | None = None) -> dict[str, int]:
    """How much the games checks looked at, for the summary line."""
    now = now or timezone.now()
    stale = _stale_before(now)
    unfinished = Q(status__in=[RecordStatus.PENDING, RecordStatus.PROCESSING])
    in_flight = GameRecord.objects.filter(unfinished).exclude(_stuck_q(stale)).count()
    return {
        "records": GameRecord.objects.count(),
        "games": Game.objects.count(),
        "records in flight": in_flight,
    }


def _stuck_q(stale: dt.datetime) -> Q:
    # The sweep's own criterion (games.adjudication.sweep.records_sweep_stale), plus a
    # processing record that has no claim time at all, which nothing would ever take over.
    return (
        Q(status=RecordStatus.PENDING, created__lt=stale)
        | Q(status=RecordStatus.PROCESSING, claimed_at__lt=stale)
        | Q(status=RecordStatus.PROCESSING, claimed_at__isnull=True)
    )


def games_breaches(*, now: dt.datetime | None = None) -> list[Breach]:
    now = now or timezone.now()
    breaches: list[Breach] = []
    breaches += _stuck_records(now)
    breaches += _unfinished_verdicts()
    breaches += _games_of_records()
    breaches += _unreadable_played_at()
    breaches += _games_against_records()
    return breaches


def _stuck_records(now: dt.datetime) -> list[Breach]:
    stale_seconds = settings.GAME_RECORD_STALE_SECONDS
    out = []
    for record_id, status, created, claimed_at, attempts in (
        GameRecord.objects.filter(_stuck_q(_stale_before(now)))
        .order_by("pk")
        .values_list("pk", "status", "created", "claimed_at", "attempts")
    ):
        since = claimed_at if status == RecordStatus.PROCESSING and claimed_at else created
        age = (now - since).total_seconds()
        out.append(
            Breach(
                "stuck",
                f"record {record_id} is stuck: {status} for {age:.0f} s (the sweep takes records "
                f"over after {stale_seconds} s), {attempts} attempt(s)",
                {"record": record_id},
            )
        )
    return out


def _unfinished_verdicts() -> list[Breach]:
    out = []
    final = GameRecord.objects.filter(status__in=[RecordStatus.VALID, RecordStatus.INVALID])
    for record_id, status in (
        final.filter(Q(verdict__isnull=True) | Q(adjudicated_at__isnull=True))
        .order_by("pk")
        .values_list("pk", "status")
    ):
        out.append(
            Breach(
                "verdict_missing",
                f"record {record_id} is {status} but has no stored verdict or adjudication time",
                {"record": record_id},
            )
        )
    for record_id in (
        GameRecord.objects.filter(status=RecordStatus.INVALID, error_code="")
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        out.append(
            Breach(
                "verdict_missing",
                f"record {record_id} is invalid but names no error code",
                {"record": record_id},
            )
        )
    return out


def _games_of_records() -> list[Breach]:
    out = []
    for record_id in (
        GameRecord.objects.filter(status=RecordStatus.VALID, game__isnull=True, report__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        out.append(
            Breach(
                "valid_without_game",
                f"record {record_id} is valid but is neither a game nor a report of one",
                {"record": record_id},
            )
        )
    for game_id, record_id, status in (
        Game.objects.exclude(record__status=RecordStatus.VALID)
        .order_by("pk")
        .values_list("pk", "record_id", "record__status")
    ):
        out.append(
            Breach(
                "game_of_unvalid_record",
                f"game {game_id} belongs to record {record_id}, which is {status}: only a valid "
                "record has a game",
                {"game": game_id, "record": record_id},
            )
        )
    return out


# Python's datetimes end at years 1 and 9999; PostgreSQL's timestamps go further (and have
# +-infinity), and a Game whose played time is beyond them cannot be read back at all. A day's
# margin covers the session's time zone.
READABLE_FROM = dt.datetime(1, 1, 2, tzinfo=dt.UTC)
READABLE_TO = dt.datetime(9999, 12, 30, tzinfo=dt.UTC)


def readable_played_at() -> Q:
    """Games whose played time Python can read (the others would fail any query reading it)."""
    return Q(played_at__gte=READABLE_FROM, played_at__lt=READABLE_TO)


def _unreadable_played_at() -> list[Breach]:
    return [
        Breach(
            "played_at_unreadable",
            f"game {game_id} has a played time that cannot be read back (out of range)",
            {"game": game_id},
        )
        for game_id in Game.objects.exclude(readable_played_at())
        .order_by("pk")
        .values_list("pk", flat=True)
    ]


def _games_against_records() -> list[Breach]:
    """Seats, winner and scores of every game against its record and verdict, by chunks."""
    out = []
    games = Game.objects.values(
        "id", "players_count", "winner_seat", "record_id", "record__seat_players", "record__verdict"
    )
    for rows in chunks(games):
        seats: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for game_id, seat, player_id, score in (
            GameSeat.objects.filter(game_id__in=[row["id"] for row in rows])
            .order_by("game_id", "seat")
            .values_list("game_id", "seat", "player_id", "score")
        ):
            seats[game_id].append((seat, player_id, score))
        for row in rows:
            out += _game_against_record(row, seats.get(row["id"], []))
    return out


def _game_against_record(row: dict, seats: list[tuple[int, int, int]]) -> list[Breach]:
    game_id, record_id = row["id"], row["record_id"]
    ids = {"game": game_id, "record": record_id}
    out = []
    seat_players = [player_id for _, player_id, _ in seats]
    expected_players = list(row["record__seat_players"] or [])
    if [seat for seat, _, _ in seats] != list(range(len(seats))) or len(seats) != row[
        "players_count"
    ]:
        out.append(
            Breach(
                "seats_mismatch",
                f"game {game_id} has seats {[s for s, _, _ in seats]} for "
                f"{row['players_count']} players",
                ids,
            )
        )
    if seat_players != expected_players:
        out.append(
            Breach(
                "seats_mismatch",
                f"game {game_id} seats players {seat_players} but record {record_id} names "
                f"{expected_players}",
                ids,
            )
        )
    verdict = row["record__verdict"]
    if not isinstance(verdict, dict):
        return out  # reported with the record (verdict_missing)
    if verdict.get("valid") is not True:
        out.append(
            Breach(
                "game_against_verdict",
                f"game {game_id} exists but the verdict of record {record_id} is not valid",
                ids,
            )
        )
        return out
    if verdict.get("winner") != row["winner_seat"]:
        out.append(
            Breach(
                "game_against_verdict",
                f"game {game_id} has winner seat {row['winner_seat']} but the verdict of record "
                f"{record_id} says {verdict.get('winner')}",
                ids,
            )
        )
    scores = [score for _, _, score in seats]
    if "scores" in verdict and list(verdict["scores"]) != scores:
        out.append(
            Breach(
                "game_against_verdict",
                f"game {game_id} has scores {scores} but the verdict of record {record_id} says "
                f"{verdict['scores']}",
                ids,
            )
        )
    return out
