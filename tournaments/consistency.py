"""Reads that check the tournaments' invariants on a whole database (``manage.py
check_consistency``).

What the tournaments promise (DESIGN.md, "Tournament domain"; tournaments/services/, the
``match_*`` services, ``match_finish``, ``_feed_next`` and ``_crown`` in ``progression``):

- a decided match (decided, walkover, ruled) has a winner that is one of its two entries; a void
  or unfinished match has none;
- in a bracket, a finished match's winner sits on its side of the next match (or the slot is
  empty when that winner withdrew since), an unfinished match has put nobody there, and a next
  match whose feeders are both finished is no longer waiting;
- a match's TP totals and games count are those of its counted games (``MatchGame``, TPs after
  time penalties); a bye counts no game;
- a counted game shares 20 TPs, its TPs are its base TPs moved by its penalties, its seats carry
  the same TPs, it is a valid tournament game of the match's event between the match's players;
- a valid game submitted for a match is counted, or refused with a ``game_not_counted`` audit
  entry (older than the sweep's period; younger ones are in flight);
- a champion is set only on a finished event, is one of its entries, not withdrawn, holds the
  champion status, and in a knockout is the winner of the final.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.consistency import Breach, chunks, games_breaches, games_counts
from games.models import Game, GameContext, GameSeat, RecordStatus
from ratings.consistency import ratings_breaches, ratings_counts, recompute_breaches
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    TeamBoard,
)

WON = (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.RULED)
GAME_TPS = Decimal("20.0")


def tournaments_counts() -> dict[str, int]:
    return {
        "events": Event.objects.count(),
        "matches": Match.objects.count(),
        "counted games": MatchGame.objects.count(),
    }


def tournaments_breaches(*, now: dt.datetime | None = None) -> list[Breach]:
    now = now or timezone.now()
    return (
        _winners()
        + _brackets()
        + _match_totals()
        + _counted_games()
        + _uncounted_games(now)
        + _champions()
    )


def _winners() -> list[Breach]:
    out = []
    # In Python rather than SQL: a bye's empty side is NULL, which a SQL comparison would not
    # count as "not this entry".
    rows = (
        Match.objects.filter(Q(status__in=WON) | Q(winner__isnull=False))
        .order_by("pk")
        .values_list("pk", "status", "winner_id", "entry_a_id", "entry_b_id")
    )
    for match_id, status, winner, a, b in rows.iterator(chunk_size=5000):
        if status in WON and winner is None:
            why = f"is {status} but has no winner"
        elif status in WON and winner not in (a, b):
            why = (
                f"is {status} and won by entry {winner}, which is not one of its entries "
                f"({_entry(a)}, {_entry(b)})"
            )
        elif status not in WON:
            why = f"is {status} but names entry {winner} as winner"
        else:
            continue
        out.append(
            Breach("match_winner", f"match {match_id} {why}", {"match": match_id, "entry": winner})
        )
    return out


def _brackets() -> list[Breach]:
    out = []
    feeders = (
        Match.objects.filter(next_match__isnull=False)
        .order_by("pk")
        .values_list(
            "pk",
            "status",
            "winner_id",
            "winner__status",
            "next_match_id",
            "next_side",
            "next_match__entry_a_id",
            "next_match__entry_b_id",
        )
    )
    finished_feeders: dict[int, list[bool]] = defaultdict(list)
    for match_id, status, winner, winner_status, following, side, next_a, next_b in feeders:
        slot = next_a if side == 0 else next_b
        final = status in FINAL_MATCH_STATUSES
        finished_feeders[following].append(final)
        ids = {"match": match_id, "next_match": following}
        if (
            final
            and slot != winner
            and not (slot is None and winner_status == EntryStatus.WITHDRAWN)
        ):
            out.append(
                Breach(
                    "winner_not_advanced",
                    f"match {match_id} is {status} with winner {_entry(winner)}, but side "
                    f"{side} of the next match {following} holds {_entry(slot)}",
                    {**ids, "entry": winner},
                )
            )
        elif not final and slot is not None:
            out.append(
                Breach(
                    "winner_not_advanced",
                    f"match {match_id} is not finished ({status}), but side {side} of the next "
                    f"match {following} already holds entry {slot}",
                    {**ids, "entry": slot},
                )
            )
    ready = [m for m, finals in finished_feeders.items() if len(finals) == 2 and all(finals)]
    waiting = set(
        Match.objects.filter(pk__in=ready, status=MatchStatus.WAITING).values_list("pk", flat=True)
    )
    for match_id in sorted(waiting):
        out.append(
            Breach(
                "bracket_stalled",
                f"match {match_id} is still waiting although both matches feeding it are finished",
                {"match": match_id},
            )
        )
    return out


def _entry(entry_id: int | None) -> str:
    return "nobody" if entry_id is None else f"entry {entry_id}"


def _match_totals() -> list[Breach]:
    out = []
    matches = Match.objects.values("id", "is_bye", "tps_a", "tps_b", "games_played")
    for rows in chunks(matches):
        sums: dict[int, list] = defaultdict(lambda: [Decimal("0.0"), Decimal("0.0"), 0, []])
        for match_id, number, tps_a, tps_b in MatchGame.objects.filter(
            match_id__in=[row["id"] for row in rows]
        ).values_list("match_id", "number", "tps_a", "tps_b"):
            total = sums[match_id]
            total[0] += tps_a
            total[1] += tps_b
            total[2] += 1
            total[3].append(number)
        for row in rows:
            match_id = row["id"]
            nothing = (Decimal("0.0"), Decimal("0.0"), 0, [])
            tps_a, tps_b, count, numbers = sums.get(match_id, nothing)
            ids = {"match": match_id}
            if row["is_bye"]:
                if count:
                    out.append(
                        Breach(
                            "match_tps_differ",
                            f"match {match_id} is a bye but counts {count} game(s)",
                            ids,
                        )
                    )
                continue
            if (row["tps_a"], row["tps_b"], row["games_played"]) != (tps_a, tps_b, count):
                out.append(
                    Breach(
                        "match_tps_differ",
                        f"match {match_id} stands at {row['tps_a']}-{row['tps_b']} TPs over "
                        f"{row['games_played']} game(s), but its counted games add up to "
                        f"{tps_a}-{tps_b} over {count}",
                        ids,
                    )
                )
            if sorted(numbers) != list(range(1, count + 1)):
                out.append(
                    Breach(
                        "match_tps_differ",
                        f"match {match_id} numbers its games {sorted(numbers)}, not 1 to {count}",
                        ids,
                    )
                )
    return out


def _counted_games() -> list[Breach]:
    out = []
    counted = MatchGame.objects.values(
        "id",
        "match_id",
        "game_id",
        "seat_a",
        "base_tps_a",
        "base_tps_b",
        "penalty_a",
        "penalty_b",
        "tps_a",
        "tps_b",
        "match__event_id",
        "match__entry_a__player_id",
        "match__entry_b__player_id",
        "match__entry_a__pair__player_a_id",
        "match__entry_a__pair__player_b_id",
        "match__entry_b__pair__player_a_id",
        "match__entry_b__pair__player_b_id",
        "board",
        "game__event_id",
        "game__context",
        "game__record__status",
    )
    for rows in chunks(counted):
        seats: dict[int, dict[int, tuple[int, Decimal | None]]] = defaultdict(dict)
        for game_id, seat, player_id, tps in GameSeat.objects.filter(
            game_id__in=[row["game_id"] for row in rows]
        ).values_list("game_id", "seat", "player_id", "tournament_points"):
            seats[game_id][seat] = (player_id, tps)
        boards = {
            (match_id, board): (a, b)
            for match_id, board, a, b in TeamBoard.objects.filter(
                match_id__in={row["match_id"] for row in rows if row["board"] is not None}
            ).values_list("match_id", "board", "player_a_id", "player_b_id")
        }
        for row in rows:
            if row["board"] is not None:
                # A team match's board game: the board's two players of the fixed lineup.
                lineup = boards.get((row["match_id"], row["board"]))
                row = {
                    **row,
                    "match__entry_a__player_id": lineup[0] if lineup else -1,
                    "match__entry_b__player_id": lineup[1] if lineup else -1,
                }
            out += _counted_game(row, seats.get(row["game_id"], {}))
    return out


def _counted_game(row: dict, seats: dict[int, tuple[int, Decimal | None]]) -> list[Breach]:
    match_id, game_id = row["match_id"], row["game_id"]
    ids = {"match": match_id, "game": game_id}
    problems = []
    if row["tps_a"] + row["tps_b"] != GAME_TPS:
        problems.append(f"its TPs {row['tps_a']}-{row['tps_b']} do not share {GAME_TPS}")
    else:
        try:
            moved = formats.apply_time_penalties(
                row["base_tps_a"], row["base_tps_b"], row["penalty_a"], row["penalty_b"]
            )
        except ValueError as exc:
            problems.append(f"its base TPs and penalties do not add up ({exc})")
        else:
            if moved != (row["tps_a"], row["tps_b"]):
                problems.append(
                    f"its TPs {row['tps_a']}-{row['tps_b']} are not its base TPs "
                    f"{row['base_tps_a']}-{row['base_tps_b']} after penalties "
                    f"{row['penalty_a']}-{row['penalty_b']}"
                )
    seat_a = row["seat_a"]
    expected = _side_players(row)
    pairs = expected is not None and len(expected[0]) == 2
    if set(seats) != ({0, 1, 2, 3} if pairs else {0, 1}) or seat_a not in (0, 1):
        problems.append(f"the game has seats {sorted(seats)}, side A in seat {seat_a}")
    else:
        side_seats = (
            ([seat_a, seat_a + 2], [1 - seat_a, 3 - seat_a])
            if pairs
            else (
                [seat_a],
                [1 - seat_a],
            )
        )
        played = tuple({seats[s][0] for s in group} for group in side_seats)
        if expected is not None and played != expected:
            problems.append(
                f"the game is players {sorted(played[0])} v {sorted(played[1])}, the match "
                f"{sorted(expected[0])} v {sorted(expected[1])}"
            )
        carried = tuple({seats[s][1] for s in group} for group in side_seats)
        if carried != ({row["tps_a"]}, {row["tps_b"]}):
            shown = "-".join(",".join(str(t) for t in sorted(c, key=str)) for c in carried)
            problems.append(
                f"the game's seats carry {shown} TPs, the match game {row['tps_a']}-{row['tps_b']}"
            )
    if row["game__event_id"] != row["match__event_id"]:
        problems.append(
            f"the game is marked for event {row['game__event_id']}, the match is in event "
            f"{row['match__event_id']}"
        )
    if row["game__context"] != GameContext.TOURNAMENT:
        problems.append(f"the game's context is {row['game__context']}, not tournament")
    if row["game__record__status"] != RecordStatus.VALID:
        problems.append(f"the game's record is {row['game__record__status']}")
    return [
        Breach("match_game", f"game {game_id} counted for match {match_id}: {problem}", ids)
        for problem in problems
    ]


def _side_players(row: dict) -> tuple[set[int], set[int]] | None:
    """The players of the match's two sides as the game must seat them (None: not known)."""
    sides = []
    for side in ("a", "b"):
        player = row[f"match__entry_{side}__player_id"]
        pair = (
            row[f"match__entry_{side}__pair__player_a_id"],
            row[f"match__entry_{side}__pair__player_b_id"],
        )
        if player is not None:
            sides.append({player})
        elif None not in pair:
            sides.append(set(pair))
        else:
            return None
    return sides[0], sides[1]


def _uncounted_window() -> float:
    schedule = settings.CELERY_BEAT_SCHEDULE.get("tournaments-sweep-uncounted-games", {})
    return float(schedule.get("schedule", 600.0)) + settings.GAME_RECORD_STALE_SECONDS


def _uncounted_games(now: dt.datetime) -> list[Breach]:
    window = _uncounted_window()
    games = (
        Game.objects.filter(
            record__status=RecordStatus.VALID,
            record__extensions__has_key="match",
            match_game__isnull=True,
            uncounted__isnull=True,
            created__lt=now - dt.timedelta(seconds=window),
        )
        .order_by("pk")
        .values_list("pk", "record__extensions")
    )
    return [
        Breach(
            "match_game_uncounted",
            f"game {game_id} was submitted for match {extensions.get('match')} but is neither "
            f"counted nor refused after {window:.0f} s",
            {"game": game_id, "match": extensions.get("match")},
        )
        for game_id, extensions in games
    ]


def _champions() -> list[Breach]:
    out = []
    for event_id, status, champion, c_event, c_status in (
        Event.objects.filter(champion__isnull=False)
        .order_by("pk")
        .values_list("pk", "status", "champion_id", "champion__event_id", "champion__status")
    ):
        ids = {"event": event_id, "entry": champion}
        if status != EventStatus.FINISHED:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id} is {status} but already has a champion (entry {champion})",
                    ids,
                )
            )
        if c_event != event_id:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s champion, entry {champion}, is an entry of event "
                    f"{c_event}",
                    ids,
                )
            )
        if c_status != EntryStatus.CHAMPION:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s champion, entry {champion}, is {c_status}",
                    ids,
                )
            )
    finals = Match.objects.filter(
        event__format=EventFormat.KNOCKOUT,
        next_match__isnull=True,
        status__in=FINAL_MATCH_STATUSES,
        bracket_index__isnull=False,
    ).values_list("pk", "event_id", "winner_id", "event__champion_id", "event__status")
    for match_id, event_id, winner, champion, status in finals.order_by("pk"):
        if winner != champion or status != EventStatus.FINISHED:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s final, match {match_id}, is won by {_entry(winner)}, "
                    f"but the event ({status}) has {_entry(champion)} as champion",
                    {"event": event_id, "match": match_id, "entry": winner},
                )
            )
    for entry_id, event_id, champion in (
        Entry.objects.filter(status=EntryStatus.CHAMPION)
        .order_by("pk")
        .values_list("pk", "event_id", "event__champion_id")
    ):
        if champion != entry_id:
            out.append(
                Breach(
                    "champion",
                    f"entry {entry_id} has the champion status, but event {event_id}'s champion "
                    f"is {_entry(champion)}",
                    {"event": event_id, "entry": entry_id},
                )
            )
    return out


# --- The whole system --------------------------------------------------------------------------


@dataclass
class Report:
    breaches: list[Breach]
    counts: dict[str, int]
    checked_at: dt.datetime

    @property
    def consistent(self) -> bool:
        return not self.breaches

    def summary(self) -> str:
        counted = ", ".join(f"{n:,} {what}" for what, n in self.counts.items())
        if self.consistent:
            return f"consistent: {counted}"
        return f"{len(self.breaches):,} breach(es) of consistency; checked {counted}"

    def as_dict(self) -> dict:
        return {
            "consistent": self.consistent,
            "checked_at": self.checked_at.isoformat(),
            "counts": self.counts,
            "breaches": [b.as_dict() for b in self.breaches],
        }


def system_check(*, recompute: bool = False) -> Report:
    """Every app's checks, top to bottom, in one read-only snapshot of the database.

    On PostgreSQL the checks share one REPEATABLE READ, READ ONLY transaction, so the apps are
    compared as of one instant while workers go on writing, and nothing can be written by
    mistake. (Inside an outer transaction, as in tests, they run in that one.)
    """
    outermost = not connection.in_atomic_block
    if outermost:
        connection.ensure_connection()
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        now = timezone.now()
        breaches = (
            games_breaches(now=now) + ratings_breaches(now=now) + tournaments_breaches(now=now)
        )
        if recompute:
            breaches += recompute_breaches()
        counts = {**games_counts(now=now), **ratings_counts(), **tournaments_counts()}
    return Report(breaches=breaches, counts=counts, checked_at=now)
