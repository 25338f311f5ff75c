"""Dispatch only: the logic lives in services."""

from __future__ import annotations

from tournaments import services


def count_tournament_game(
    sender, *, game_id: int, record_id: int, extensions: dict | None = None, **kwargs
) -> None:
    if extensions is not None and "match" not in extensions:
        return
    # Called after commit in the adjudicating worker: counting the game for its match is an
    # explicit call in that task, so the match moves as soon as the verdict is stored. If it
    # fails, the sweep task retries it (see tasks.sweep_uncounted_games).
    services.match_game_attach(game_id=game_id)
