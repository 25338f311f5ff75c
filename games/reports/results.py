"""The Game row of a valid record whose result stands, and telling higher apps about it.

A `Game` exists only once a result stands (`filing.let_stand`, `batch`); higher apps hear of it
after commit through `game_adjudicated` (one game) or `games_adjudicated` (games that stood
together), and a receiver's failure is logged, never raised into the sender.
"""

from __future__ import annotations

import logging

from games.models import Game, GameRecord, GameSeat
from games.reports.record_facts import played_at_of
from games.signals import game_adjudicated, games_adjudicated

logger = logging.getLogger(__name__)


def announce_games(games: list[tuple[int, int, dict]]) -> None:
    """`announce_game` for games whose results stood together: one signal for them all."""
    for receiver, result in games_adjudicated.send_robust(sender=Game, games=games):
        if isinstance(result, Exception):
            logger.error(
                "games_adjudicated receiver %r failed for games %s",
                receiver,
                [game_id for game_id, _r, _e in games],
                exc_info=result,
            )


def announce_game(game_id: int, record_id: int, extensions: dict) -> None:
    for receiver, result in game_adjudicated.send_robust(
        sender=Game, game_id=game_id, record_id=record_id, extensions=extensions
    ):
        if isinstance(result, Exception):
            logger.error(
                "game_adjudicated receiver %r failed for game %s",
                receiver,
                game_id,
                exc_info=result,
            )


def game_for_record(record: GameRecord, verdict: dict, document: dict) -> Game:
    """The Game row a valid record makes, unsaved; its seats wait in `unsaved_seats`."""
    seats = document["players"]
    colours = [seat["colour"] for seat in seats]
    is_pairs = len(seats) == 4 and colours[0] == colours[2] and colours[1] == colours[3]
    winner = verdict.get("winner")
    game = Game(
        record=record,
        players_count=len(seats),
        is_pairs=is_pairs,
        winner_seat=winner,
        is_draw=winner is None,
        end_reason=verdict["end"],
        placements=document["placements"],
        placements_count=verdict["placements"],
        turns=verdict["turns"],
        endgame_from=verdict.get("endgame_from"),
        clock=document.get("clock"),
        played_at=played_at_of(document, record.created),
    )
    game.unsaved_seats = [
        GameSeat(
            game=game,
            seat=index,
            player_id=player_id,
            colour=colours[index],
            score=verdict["scores"][index],
        )
        for index, player_id in enumerate(record.seat_players)
    ]
    return game


def game_from_record(record: GameRecord, verdict: dict, document: dict) -> Game:
    game = game_for_record(record, verdict, document)
    game.save(force_insert=True)
    GameSeat.objects.bulk_create(game.unsaved_seats)
    return game
