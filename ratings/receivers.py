"""Dispatch only: the logic lives in services."""

from __future__ import annotations

from django.db import transaction

from ratings import services


def rate_adjudicated_game(sender, *, game_id: int, record_id: int, **kwargs) -> None:
    # Sent after the adjudication commits; on_commit runs at once outside a transaction and
    # waits for the commit inside one. The service puts the game on the ratings' work list and
    # publishes the batch task unless one is queued or running. A broker outage leaves the game
    # pending for the next task or the sweep (beat).
    transaction.on_commit(lambda: services.enqueue_game_ratings(game_id))


def rate_adjudicated_games(sender, *, games: list[tuple[int, int, dict]], **kwargs) -> None:
    # The same for games whose results stood together (a batch of records): one announcement.
    game_ids = [game_id for game_id, _record_id, _extensions in games]
    transaction.on_commit(lambda: services.enqueue_games_ratings(game_ids))


def replay_rewritten_game(sender, *, game_id: int, **kwargs) -> None:
    # Sent inside the transaction that changed a counted game's result: the ratings follow in
    # the same transaction (an error here aborts the change, nothing is half-changed).
    services.game_result_replay(game_id=game_id)
