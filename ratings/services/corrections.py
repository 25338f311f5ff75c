"""Reverting and adjusting: compensating changes, never edits."""

from __future__ import annotations

import datetime as dt
from functools import partial

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from players.models import Player
from players.types import User
from ratings.models import (
    PER_GAME_SYSTEMS,
    SCALED_SYSTEMS,
    AuditAction,
    ChangeReason,
    Rating,
    RatingChange,
    RatingSystem,
)
from ratings.notes import RESULT_CHANGED_NOTE
from ratings.services.audit import rating_audit, required_note
from ratings.services.changes import start_value, write_change
from ratings.services.locks import lock_tables
from ratings.services.rated_games import load_game_facts
from ratings.services.scheduling import enqueue_event_elo
from ratings.services.timeline import Adjustment, replay_from
from ratings.services.versions import Writer
from ratings.systems.replay import ADJUSTMENT, GAME

# A new adjustment sorts after every stored one made at the same instant (its id is not known
# before it is written, and it will be the largest).
_NEW_ID = 2**62

# --- Reverting and adjusting -------------------------------------------------------------------
#
# In the game-by-game tables a revert removes an event (a game, an adjustment) from the
# timeline: the event stays in place as a step that moves nothing (a `revert` row superseding its
# current version), and the table is replayed forward from there, so the ratings after it equal
# the history without it, exactly. The Elo is not a timeline: its adjustments and recompute
# corrections are compensated by minus their delta, and its games are reverted through their
# tournament's recalculation.


def _elo_compensate(change: RatingChange, *, actor: User, note: str) -> RatingChange:
    rating = Rating.objects.filter(player_id=change.player_id, system=change.system).first()
    current = rating.value if rating else start_value(change.system)
    after = change.before if current == change.after else current - change.delta
    return write_change(
        system=change.system,
        player_id=change.player_id,
        rating=rating,
        before=current,
        after=after,
        games=(rating.games if rating else 0) - change.games_delta,
        games_delta=-change.games_delta,
        reason=ChangeReason.REVERT,
        event_id=change.event_id,
        reverts=change,
        actor=actor,
        note=note,
    )


def _void(
    system: str, origins: list[RatingChange], key: tuple, *, actor: User, note: str
) -> list[RatingChange]:
    """Void these first versions (one event) in their table and replay forward."""
    ids = {c.pk for c in origins}
    outcome = replay_from(
        system,
        since=[key],
        voiding=ids,
        load_games=load_game_facts,
        writer=Writer(system, voiding=ids, actor=actor, note=note),
    )
    return outcome.versions


def _timeline_key(change: RatingChange) -> tuple[dt.datetime, int, int]:
    if change.game_id is not None:
        return (change.at, GAME, change.game_id)
    return (change.at, ADJUSTMENT, change.origin_id or change.pk)


def game_ratings_revert(*, actor: User, game_id: int, note: str) -> list[RatingChange]:
    """Revert a game in every table it counts in: it stays in its place as a step that moves
    nothing, and each table is replayed forward from it, so every later rating equals the
    history without the game. Its tournament's Elo is recalculated without it.

    Returns the rows written: the game's own revert rows and the later steps recalculated.
    """
    return games_ratings_revert(actor=actor, game_ids=[game_id], note=note)


def games_ratings_revert(*, actor: User, game_ids: list[int], note: str) -> list[RatingChange]:
    """Revert several games at once (a flagged series): one replay per table from the earliest
    of them, the same result as reverting them one by one."""
    note = required_note(note)
    with transaction.atomic():
        lock_tables(*PER_GAME_SYSTEMS, RatingSystem.ELO)
        changes = list(
            RatingChange.objects.filter(
                game_id__in=list(game_ids), reason=ChangeReason.GAME, reverted_by__isnull=True
            ).order_by("id")
        )
        if not changes:
            raise ValidationError({"game": _("This game has no rating changes left to revert.")})
        written: list[RatingChange] = []
        for system in PER_GAME_SYSTEMS:
            origins = [c for c in changes if c.system == system]
            if origins:
                key = min((c.at, GAME, c.game_id) for c in origins)
                written += _void(system, origins, key, actor=actor, note=note)
        for game_id in sorted({c.game_id for c in changes}):
            own = [c for c in written if c.reason == ChangeReason.REVERT and c.game_id == game_id]
            rating_audit(
                actor=actor,
                action=AuditAction.GAME_REVERT,
                reason=note,
                change=next(c for c in changes if c.game_id == game_id),
                details={
                    "game": game_id,
                    "changes": [c.pk for c in changes if c.game_id == game_id],
                    "compensations": [c.pk for c in own],
                    "recalculated": sum(1 for c in written if c.reason == ChangeReason.REPLAY),
                },
            )
        events = set(
            Game.objects.filter(pk__in=list(game_ids), event_id__isnull=False).values_list(
                "event_id", flat=True
            )
        )
        for event_id in events:
            transaction.on_commit(partial(enqueue_event_elo, event_id))
    return written


def game_result_replay(*, game_id: int) -> list[RatingChange]:
    """A game that counted got a new result (a ruling after a reopening, an accepted
    re-adjudication): in every table it counts in, the game keeps its place and is computed
    again from its new result, and the table is replayed forward from it, so the ratings equal
    a recompute of the history with the new result. Its tournament's Elo is recalculated.

    Called inside the transaction that rewrote the result (``game_result_rewritten``), so the
    result and the ratings made from it commit together. A game no table has taken yet needs
    nothing: it is applied later from its current result. Returns the rows written.
    """
    with transaction.atomic():
        lock_tables(*PER_GAME_SYSTEMS, RatingSystem.ELO)
        changes = list(
            RatingChange.objects.filter(
                game_id=game_id, reason=ChangeReason.GAME, reverted_by__isnull=True
            ).order_by("id")
        )
        written: list[RatingChange] = []
        for system in PER_GAME_SYSTEMS:
            own = [c for c in changes if c.system == system]
            if not own:
                continue
            key = min((c.at, GAME, game_id) for c in own)
            written += replay_from(
                system,
                since=[key],
                rewritten={game_id},
                load_games=load_game_facts,
                writer=Writer(system, note=RESULT_CHANGED_NOTE),
            ).versions
        if changes:
            rating_audit(
                actor=None,
                action=AuditAction.RESULT_REPLAY,
                change=changes[0],
                details={
                    "game": game_id,
                    "recalculated": len(written),
                    "tables": sorted({c.system for c in changes}),
                },
            )
        event_id = Game.objects.filter(pk=game_id).values_list("event_id", flat=True).first()
        if event_id is not None:
            transaction.on_commit(partial(enqueue_event_elo, event_id))
    return written


def change_revert(*, actor: User, change_id: int, note: str) -> list[RatingChange]:
    """Revert one change: a game's change reverts the whole game (a game counts or it does
    not); an adjustment is taken out of the history (and the table replayed); an Elo
    recompute correction is compensated on its own."""
    note = required_note(note)
    change = RatingChange.objects.select_related("origin").filter(pk=change_id).first()
    if change is None:
        raise ValidationError({"change": _("No such rating change.")})
    if change.reason == ChangeReason.REPLAY:
        change = change.origin  # a recalculated version: revert its event
    if change.reason == ChangeReason.GAME:
        return game_ratings_revert(actor=actor, game_id=change.game_id, note=note)
    if change.reason == ChangeReason.REVERT:
        raise ValidationError({"change": _("A revert cannot itself be reverted; adjust instead.")})
    if change.reason in (ChangeReason.TOURNAMENT, ChangeReason.ANCHOR):
        raise ValidationError(
            {
                "change": _(
                    "Tournament Elo changes follow from the tournament's games: revert a "
                    "game instead, and its tournament is recalculated."
                )
            }
        )
    timeline = change.at is not None
    if not timeline and change.system != RatingSystem.ELO:
        raise ValidationError(
            {"change": _("This correction comes from a recompute of the history: adjust instead.")}
        )
    with transaction.atomic():
        lock_tables(change.system)
        change = RatingChange.objects.select_for_update().get(pk=change.pk)
        if change.is_reverted:
            raise ValidationError({"change": _("This change has already been reverted.")})
        if timeline:
            made = _void(change.system, [change], _timeline_key(change), actor=actor, note=note)
        else:
            made = [_elo_compensate(change, actor=actor, note=note)]
        compensation = next(c for c in made if c.reason == ChangeReason.REVERT)
        rating_audit(
            actor=actor,
            action=AuditAction.CHANGE_REVERT,
            reason=note,
            player_id=change.player_id,
            change=change,
            details={"compensation": compensation.pk, "recalculated": len(made) - 1},
        )
    return made


def rating_adjust(
    *,
    actor: User,
    player_id: int,
    system: str,
    reason: str,
    delta: float | None = None,
    value: float | None = None,
) -> RatingChange:
    """A manual adjustment by an admin, by ``delta`` or to ``value`` (one of them), with a
    reason (kept on the change and in the audit trail).

    In a game-by-game table the adjustment is an event of the history at the time it is made:
    every replay (a late game before it, a revert, a recompute) applies it again by the delta it
    made then.
    """
    reason = required_note(reason, "reason")
    if system not in RatingSystem.values:
        raise ValidationError({"system": _("Unknown table %(table)s.") % {"table": repr(system)}})
    if (delta is None) == (value is None):
        raise ValidationError({"delta": _("Give either a delta or a new value, not both.")})
    if not Player.objects.filter(pk=player_id).exists():
        raise ValidationError({"player": _("No such player.")})
    with transaction.atomic():
        lock_tables(system)
        # A game-by-game table replays its history from the adjustment; the Elo just moves.
        adjust = _adjust_timeline if system in PER_GAME_SYSTEMS else _adjust_elo
        change = adjust(
            actor=actor, player_id=player_id, system=system, reason=reason, delta=delta, value=value
        )
        if system in SCALED_SYSTEMS and delta is not None:
            wanted = change.before + delta
            if not 0.0 <= wanted <= 1000.0:  # the transaction is rolled back
                raise ValidationError(
                    {
                        "delta": _(
                            "The rating would be %(rating)s; this table runs from 0 to 1000."
                        )
                        % {"rating": f"{wanted:.2f}"}
                    }
                )
        rating_audit(
            actor=actor,
            action=AuditAction.ADJUSTMENT,
            reason=reason,
            player_id=player_id,
            change=change,
            details={"system": system, "before": change.before, "after": change.after},
        )
    return change


def _adjust_timeline(
    *,
    actor: User,
    player_id: int,
    system: str,
    reason: str,
    delta: float | None,
    value: float | None,
) -> RatingChange:
    if value is not None and not 0.0 <= value <= 1000.0:
        raise ValidationError(
            {
                "value": _("The rating would be %(rating)s; this table runs from 0 to 1000.")
                % {"rating": f"{value:.2f}"}
            }
        )
    now = timezone.now()
    adjustment = Adjustment(_NEW_ID, player_id, now, delta or 0.0, target=value)
    outcome = replay_from(
        system,
        since=[(now, ADJUSTMENT, _NEW_ID)],
        new_adjustments=[adjustment],
        load_games=load_game_facts,
        writer=Writer(system, actor=actor, adjustment_note=reason, note=reason),
    )
    return next(c for c in outcome.created if c.reason == ChangeReason.ADJUSTMENT)


def _adjust_elo(
    *,
    actor: User,
    player_id: int,
    system: str,
    reason: str,
    delta: float | None,
    value: float | None,
) -> RatingChange:
    rating = Rating.objects.filter(player_id=player_id, system=system).first()
    before, games = (rating.value, rating.games) if rating else (start_value(system), 0)
    return write_change(
        system=system,
        player_id=player_id,
        rating=rating,
        before=before,
        after=before + delta if delta is not None else float(value),
        games=games,
        games_delta=0,
        reason=ChangeReason.ADJUSTMENT,
        actor=actor,
        note=reason,
    )
