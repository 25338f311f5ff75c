"""Reverting and adjusting: compensating changes, never edits."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games.models import Game
from players.models import Player
from ratings.models import (
    PER_GAME_SYSTEMS,
    SCALED_SYSTEMS,
    AuditAction,
    ChangeReason,
    Rating,
    RatingChange,
    RatingSystem,
)
from ratings.selectors import current_period
from ratings.services.apply import _brought
from ratings.services.changes import (
    _audit,
    _clamp,
    _params_for,
    _require_note,
    _write_change,
    start_value,
)
from ratings.services.locks import _lock
from ratings.services.scheduling import enqueue_event_elo

# --- Reverting and adjusting -------------------------------------------------------------------


def _current_for_revert(change: RatingChange) -> tuple[Rating | None, float, bool]:
    """The value a compensating change starts from, and whether it moves the Rating row.

    A monthly change of a month that is over is compensated within that month's history; the
    current month's table is not touched.
    """
    rating = Rating.objects.filter(player_id=change.player_id, system=change.system).first()
    if change.system == RatingSystem.MONTHLY and (rating is None or rating.period != change.period):
        last = (
            RatingChange.objects.filter(
                player_id=change.player_id, system=change.system, period=change.period
            )
            .order_by("-id")
            .first()
        )
        return None, (last.after if last else change.after), False
    if rating is None:
        return None, start_value(change.system), True
    return rating, rating.value, True


def _compensate(change: RatingChange, *, actor: Any, note: str) -> RatingChange:
    rating, current, moves_rating = _current_for_revert(change)
    if current == change.after:
        after = change.before  # nothing moved since: restore exactly
    else:
        after = _clamp(change.system, current - change.delta)
    games = (rating.games if rating else 0) - change.games_delta
    return _write_change(
        system=change.system,
        player_id=change.player_id,
        rating=rating,
        before=current,
        after=after,
        games=games,
        games_delta=-change.games_delta,
        reason=ChangeReason.REVERT,
        period=change.period if change.system == RatingSystem.MONTHLY else "",
        game_id=change.game_id,
        event_id=change.event_id,
        reverts=change,
        actor=actor,
        note=note,
        update_rating=moves_rating,
    )


def game_ratings_revert(*, actor: Any, game_id: int, note: str) -> list[RatingChange]:
    """Revert every rating change a game caused, in every table, with compensating changes.

    The game then no longer counts: it is skipped by later applications and by recomputes, and
    its tournament's Elo is recalculated without it. Later games keep the changes they made.
    """
    note = _require_note(note)
    with transaction.atomic():
        _lock(*PER_GAME_SYSTEMS, RatingSystem.ELO)
        changes = list(
            RatingChange.objects.filter(
                game_id=game_id, reason=ChangeReason.GAME, reverted_by__isnull=True
            ).order_by("id")
        )
        if not changes:
            raise ValidationError({"game": "This game has no rating changes left to revert."})
        compensations = [_compensate(c, actor=actor, note=note) for c in changes]
        _audit(
            actor=actor,
            action=AuditAction.GAME_REVERT,
            reason=note,
            change=changes[0],
            details={
                "game": game_id,
                "changes": [c.pk for c in changes],
                "compensations": [c.pk for c in compensations],
            },
        )
        event_id = Game.objects.filter(pk=game_id).values_list("event_id", flat=True).first()
        if event_id is not None:
            transaction.on_commit(lambda: enqueue_event_elo(event_id))
    return compensations


def change_revert(*, actor: Any, change_id: int, note: str) -> list[RatingChange]:
    """Revert one change: a game's change reverts the whole game (a game counts or it does
    not); an adjustment or a recompute correction is compensated on its own."""
    note = _require_note(note)
    change = RatingChange.objects.filter(pk=change_id).first()
    if change is None:
        raise ValidationError({"change": "No such rating change."})
    if change.reason == ChangeReason.GAME:
        return game_ratings_revert(actor=actor, game_id=change.game_id, note=note)
    if change.reason == ChangeReason.REVERT:
        raise ValidationError({"change": "A revert cannot itself be reverted; adjust instead."})
    if change.reason in (ChangeReason.TOURNAMENT, ChangeReason.ANCHOR):
        raise ValidationError(
            {
                "change": "Tournament Elo changes follow from the tournament's games: revert a "
                "game instead, and its tournament is recalculated."
            }
        )
    with transaction.atomic():
        _lock(change.system)
        change = RatingChange.objects.select_for_update().get(pk=change_id)
        if change.is_reverted:
            raise ValidationError({"change": "This change has already been reverted."})
        compensation = _compensate(change, actor=actor, note=note)
        _audit(
            actor=actor,
            action=AuditAction.CHANGE_REVERT,
            reason=note,
            player_id=change.player_id,
            change=change,
            details={"compensation": compensation.pk},
        )
    return [compensation]


def rating_adjust(
    *,
    actor: Any,
    player_id: int,
    system: str,
    reason: str,
    delta: float | None = None,
    value: float | None = None,
) -> RatingChange:
    """A manual adjustment by an admin, by ``delta`` or to ``value`` (one of them), with a
    reason (kept on the change and in the audit trail)."""
    reason = _require_note(reason, "reason")
    if system not in RatingSystem.values:
        raise ValidationError({"system": f"Unknown table {system!r}."})
    if (delta is None) == (value is None):
        raise ValidationError({"delta": "Give either a delta or a new value, not both."})
    if not Player.objects.filter(pk=player_id).exists():
        raise ValidationError({"player": "No such player."})
    with transaction.atomic():
        _lock(system)
        rating = Rating.objects.filter(player_id=player_id, system=system).first()
        period = ""
        if system == RatingSystem.MONTHLY:
            period = current_period()
            before, games = _brought(rating, system, _params_for(system), period)
        elif rating is None:
            before, games = start_value(system), 0
        else:
            before, games = rating.value, rating.games
        after = before + delta if delta is not None else float(value)
        if system in SCALED_SYSTEMS and not 0.0 <= after <= 1000.0:
            raise ValidationError(
                {
                    "delta" if delta is not None else "value": (
                        f"The rating would be {after:.2f}; this table runs from 0 to 1000."
                    )
                }
            )
        change = _write_change(
            system=system,
            player_id=player_id,
            rating=rating,
            before=before,
            after=after,
            games=games,
            games_delta=0,
            reason=ChangeReason.ADJUSTMENT,
            period=period,
            actor=actor,
            note=reason,
        )
        _audit(
            actor=actor,
            action=AuditAction.ADJUSTMENT,
            reason=reason,
            player_id=player_id,
            change=change,
            details={"system": system, "before": before, "after": after},
        )
    return change
