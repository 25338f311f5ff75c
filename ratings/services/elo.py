"""The tournament Elo on the database: recalculating an event, anchoring the pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from players.types import User
from ratings import params as rating_params
from ratings.models import (
    AuditAction,
    ChangeReason,
    EloEvent,
    EloStanding,
    Rating,
    RatingChange,
    RatingSystem,
)
from ratings.selectors import (
    elo_event_games,
    elo_event_nothing_to_rate,
    elo_event_state,
    elo_events_changed,
    ratings_by_player,
)
from ratings.services.audit import rating_audit
from ratings.services.changes import write_change
from ratings.services.flags import flag_elo_swings
from ratings.services.locks import lock_tables
from ratings.systems import (
    EloRating,
    anchor_step,
    elo_tournament,
)

# --- Tournament Elo ----------------------------------------------------------------------------


@dataclass
class EloRecalculation:
    event_id: int
    games: int
    players: int
    changes: int
    anchor_shift: float = 0.0


def elo_event_recalculate(
    *, event_id: int, anchor: bool = True, actor: User | None = None, flag_swings: bool = True
) -> EloRecalculation:
    """Recalculate one tournament's Elo from its games (a running event may be done many times).

    Every player is updated from the standing they brought to the event (kept in EloStanding
    from the event's first calculation, so it does not drift as the event goes on). What the
    event adds to a rating is written as the difference from what it had added before: the
    first calculation adds the whole update, later ones only what changed. Then the pool is
    re-anchored to its games-weighted mean. ``flag_swings=False``: an admin's own correction
    (a game behind a swing reverted from the queue) is not flagged back to them.
    """
    if elo_event_nothing_to_rate(event_id):
        # An event decided by rulings and walkovers (or not started) is told of every result;
        # it costs one read, not the lock, the pool's anchor and an audit entry each time.
        # Read without the lock: a game counted after this read is announced on its own.
        return EloRecalculation(event_id=event_id, games=0, players=0, changes=0)
    params = rating_params.elo_params()
    with transaction.atomic():
        lock_tables(RatingSystem.ELO)
        games = elo_event_games(event_id)
        standings = {s.player_id: s for s in EloStanding.objects.filter(event_id=event_id)}
        participants = {p for a, b, _, _ in games for p in (a, b)}
        ratings = ratings_by_player(RatingSystem.ELO, participants | standings.keys())
        brought: dict[int, EloRating] = {}
        for pid in participants:
            if pid in standings:
                s = standings[pid]
                brought[pid] = EloRating(rating=s.rating_before, games=s.games_before)
            elif pid in ratings and ratings[pid].games > 0:
                brought[pid] = EloRating(rating=ratings[pid].value, games=ratings[pid].games)
            else:
                brought[pid] = EloRating(rating=params.initial, games=0)
        updates = elo_tournament(
            {pid: b for pid, b in brought.items() if b.games > 0}, games, params=params
        )
        written = []
        for pid in sorted(participants | standings.keys()):
            old = standings.get(pid)
            rating = ratings.get(pid)
            current = rating.value if rating else params.initial
            current_games = rating.games if rating else 0
            if old is not None:
                old_after, old_games = old.rating_after, old.games_after
            else:
                old_after, old_games = current, current_games
            if pid in updates:
                new_after, new_games = updates[pid].rating, updates[pid].games
            else:  # all their games in this event were reverted
                new_after, new_games = old.rating_before, old.games_before
            if new_after == old_after and new_games == old_games:
                continue
            # Nothing moved the rating since this event last set it: write the new value
            # itself (bit-exact); otherwise add what the event's contribution changed by.
            after = new_after if current == old_after else current + (new_after - old_after)
            written.append(
                write_change(
                    system=RatingSystem.ELO,
                    player_id=pid,
                    rating=rating,
                    before=current,
                    after=after,
                    games=current_games + (new_games - old_games),
                    games_delta=new_games - old_games,
                    reason=ChangeReason.TOURNAMENT,
                    event_id=event_id,
                )
            )
        if flag_swings:
            flag_elo_swings(
                [c for c in written if brought.get(c.player_id, EloRating(0, 0)).games > 0]
            )
        for pid, update in updates.items():
            EloStanding.objects.update_or_create(
                event_id=event_id,
                player_id=pid,
                defaults={
                    "rating_before": brought[pid].rating,
                    "games_before": brought[pid].games,
                    "rating_after": update.rating,
                    "games_after": update.games,
                    "games": update.games - brought[pid].games,
                    "share": update.share,
                    "expected_share": update.expected_share,
                    "performance": update.performance,
                    "opposition_average": update.opposition_average,
                },
            )
        EloStanding.objects.filter(event_id=event_id).exclude(player_id__in=updates.keys()).delete()
        state = elo_event_state(event_id)
        EloEvent.objects.update_or_create(
            event_id=event_id,
            defaults={
                "fingerprint": state.fingerprint if state else "0:None:None",
                "games": len(games),
                "first_played_at": state.first_played_at if state else None,
                "calculated_at": timezone.now(),
            },
        )
        shift = _elo_anchor(params) if anchor else 0.0
        result = EloRecalculation(
            event_id=event_id,
            games=len(games),
            players=len(updates),
            changes=len(written),
            anchor_shift=shift,
        )
        rating_audit(
            actor=actor,
            action=AuditAction.ELO_RECALCULATE,
            event_id=event_id,
            details={
                "event": event_id,
                "games": len(games),
                "players": len(updates),
                "changes": len(written),
                "anchor_shift": shift,
            },
        )
    return result


def _elo_anchor(params: Any) -> float:
    rated = list(Rating.objects.filter(system=RatingSystem.ELO, games__gt=0))
    shift = anchor_step([EloRating(r.value, r.games) for r in rated], params)
    if not shift:
        return 0.0
    changes = []
    for r in rated:
        after = r.value + shift
        changes.append(
            RatingChange(
                player_id=r.player_id,
                system=RatingSystem.ELO,
                reason=ChangeReason.ANCHOR,
                before=r.value,
                after=after,
                delta=after - r.value,
            )
        )
        r.value = after
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    Rating.objects.bulk_update(rated, ["value"], batch_size=2000)
    return shift


def elo_recalculate_changed() -> list[EloRecalculation]:
    """Recalculate, in tournament order, every event whose games changed (beat task)."""
    return [elo_event_recalculate(event_id=s.event_id) for s in elo_events_changed()]
