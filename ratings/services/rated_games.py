"""Games as the ratings read them: plain data, loaded in bulk (one query for the games, one for
their seats), and as the facts a table's timeline replays."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from games.models import Game, GameSeat, RecordStatus
from ratings.services.timeline import GameFacts


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a rated game: who sat there, their score, whether a robot played it."""

    seat: int
    player_id: int
    score: int
    robot: bool


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game as the ratings apply it (read once per batch, without model instances)."""

    id: int
    players_count: int
    is_pairs: bool
    winner_seat: int | None
    context: str
    event_id: int | None
    played_at: dt.datetime
    valid: bool
    seats: tuple[RatedSeat, ...]

    @property
    def robot(self) -> bool:
        return any(s.robot for s in self.seats)

    @property
    def is_duel(self) -> bool:
        return self.players_count == 2 and not self.is_pairs and len(self.seats) == 2


def load_rated_games(game_ids: Sequence[int]) -> dict[int, RatedGame]:
    """These games by id, seats in seat order."""
    if not game_ids:
        return {}
    rows = Game.objects.filter(pk__in=game_ids).values(
        "id",
        "players_count",
        "is_pairs",
        "winner_seat",
        "context",
        "event_id",
        "played_at",
        "record__status",
    )
    seats: dict[int, list[RatedSeat]] = defaultdict(list)
    for game_id, seat, player_id, score, robot in (
        GameSeat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "player_id", "score", "player__is_robot")
    ):
        seats[game_id].append(RatedSeat(seat, player_id, score, robot))
    return {
        row["id"]: RatedGame(
            id=row["id"],
            players_count=row["players_count"],
            is_pairs=row["is_pairs"],
            winner_seat=row["winner_seat"],
            context=row["context"],
            event_id=row["event_id"],
            played_at=row["played_at"],
            valid=row["record__status"] == RecordStatus.VALID,
            seats=tuple(seats.get(row["id"], ())),
        )
        for row in rows
    }


def game_facts(game: RatedGame) -> GameFacts:
    """What a table's timeline replays of the game."""
    return GameFacts(
        id=game.id,
        played_at=game.played_at,
        winner_seat=game.winner_seat,
        robot=game.robot,
        seats=tuple((s.player_id, s.score) for s in game.seats),
    )


def load_game_facts(game_ids: Sequence[int]) -> list[GameFacts]:
    """The stored games a replay reads again (``replay_from``'s ``load_games``)."""
    return [game_facts(g) for g in load_rated_games(game_ids).values()]
