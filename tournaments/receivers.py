"""Dispatch only: the logic lives in services."""

from __future__ import annotations

from tournaments import services
from tournaments.matches.reporting import match_game_recount


def count_tournament_game(
    sender, *, game_id: int, record_id: int, extensions: dict | None = None, **kwargs
) -> None:
    if extensions is not None and "match" not in extensions:
        return
    # Called after commit in the adjudicating worker: counting the game for its match is an
    # explicit call in that task, so the match moves as soon as the verdict is stored. If it
    # fails, the sweep task retries it (see tasks.sweep_uncounted_games).
    services.match_game_attach(game_id=game_id)


def count_tournament_games(sender, *, games: list[tuple[int, int, dict]], **kwargs) -> None:
    for game_id, record_id, extensions in games:
        count_tournament_game(sender, game_id=game_id, record_id=record_id, extensions=extensions)


def recount_ruled_game(sender, *, game_id: int, **kwargs) -> None:
    # A new ruling changed a result that had counted (games.signals.game_result_changed).
    match_game_recount(game_id=game_id)
