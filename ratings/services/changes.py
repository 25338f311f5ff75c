"""Writing a change: a table's start value, one appended change and the Rating row it moves."""

from __future__ import annotations

import datetime as dt

from players.types import User
from ratings import params as rating_params
from ratings.models import ChangeReason, Rating, RatingChange, RatingSystem
from ratings.services.audit import acting_user


def start_value(system: str) -> float:
    """The rating a player has in a table before their first game there."""
    if system == RatingSystem.ELO:
        return rating_params.elo_params().initial
    return rating_params.table_params(system).start


def write_change(
    *,
    system: str,
    player_id: int,
    rating: Rating | None,
    before: float,
    after: float,
    games: int,
    games_delta: int,
    reason: str,
    period: str = "",
    game_id: int | None = None,
    played_at: dt.datetime | None = None,
    event_id: int | None = None,
    reverts: RatingChange | None = None,
    actor: User | None = None,
    note: str = "",
    update_rating: bool = True,
) -> RatingChange:
    """Append one change and move the player's Rating row to match it."""
    change = RatingChange.objects.create(
        player_id=player_id,
        system=system,
        reason=reason,
        game_id=game_id,
        event_id=event_id,
        period=period,
        before=before,
        after=after,
        delta=after - before,
        games_delta=games_delta,
        reverts=reverts,
        actor=acting_user(actor),
        note=note,
    )
    if not update_rating:
        return change
    if rating is None:
        Rating.objects.create(
            player_id=player_id,
            system=system,
            value=after,
            games=max(0, games),
            period=period,
            last_game_id=game_id,
            last_played_at=played_at,
        )
    else:
        rating.value = after
        rating.games = max(0, games)
        rating.period = period
        fields = ["value", "games", "period", "updated"]
        if game_id is not None and reason == ChangeReason.GAME:
            rating.last_game_id = game_id
            rating.last_played_at = played_at
            fields += ["last_game", "last_played_at"]
        rating.save(update_fields=fields)
    return change
