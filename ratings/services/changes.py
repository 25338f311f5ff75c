"""What every rating write shares: parameters per table, periods, the audit, writing a change."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from players.models import AuditEntry, Player
from players.services.audit import audit
from players.types import User
from ratings import params as rating_params
from ratings.models import (
    SCALED_SYSTEMS,
    ChangeReason,
    Rating,
    RatingChange,
    RatingSystem,
    Review,
    Title,
)
from ratings.systems import (
    LobbyParams,
)

# --- Small helpers -----------------------------------------------------------------------------


def _params_for(system: str) -> LobbyParams:
    return rating_params.table_params(system)


def start_value(system: str) -> float:
    """The rating a player has in a table before their first game there."""
    if system == RatingSystem.ELO:
        return rating_params.elo_params().initial
    return _params_for(system).start


def _clamp(system: str, value: float) -> float:
    if system in SCALED_SYSTEMS:
        return min(1000.0, max(0.0, value))
    return value


def _actor(user: User) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _audit(
    *,
    actor: User,
    action: str,
    reason: str = "",
    player_id: int | None = None,
    change: RatingChange | None = None,
    review: Review | None = None,
    title: Title | None = None,
    details: dict | None = None,
    event_id: int | None = None,
) -> AuditEntry:
    """A line of the one audit trail (`players.services.audit`) about ratings."""
    return audit(
        actor=actor,
        action=action,
        reason=reason,
        subject_player=Player.objects.get(pk=player_id) if player_id is not None else None,
        rating_change_id=change.pk if change is not None else None,
        review_id=review.pk if review is not None else None,
        title_id=title.pk if title is not None else None,
        event_id=event_id,
        details=details,
    )


def _require_note(note: str, field_name: str = "note") -> str:
    note = (note or "").strip()
    if not note:
        raise ValidationError({field_name: _("Say why: this is kept in the audit trail.")})
    return note


def _reverted_game_ids() -> set[int]:
    """Games whose game-caused changes were reverted: they no longer count in any table."""
    return set(
        RatingChange.objects.filter(
            reason=ChangeReason.REVERT, reverts__reason=ChangeReason.GAME
        ).values_list("reverts__game_id", flat=True)
    )


def _write_change(
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
        actor=_actor(actor),
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
