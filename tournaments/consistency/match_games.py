"""Counted games and games submitted for a match (``manage.py check_consistency``)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from django.conf import settings

from games.consistency import Breach, chunks
from games.models import Game, GameContext, GameSeat, RecordStatus
from tournaments import formats
from tournaments.models import MatchGame, TeamBoard

GAME_TPS = Decimal("20.0")


def counted_game_breaches() -> list[Breach]:
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


def uncounted_game_breaches(now: dt.datetime) -> list[Breach]:
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
