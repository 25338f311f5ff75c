"""When a rating change happened, as charts and histories date it: when its game was played.

A change is written when the ratings compute it, which may be long after the game: a tournament's
Elo is calculated when its results are in (the demo computes every event on the day it loads), a
late game is inserted in its place days later. People read a history by the games, so a point is
dated by the game behind it:

- a game's step in a game-by-game table: the game's played time (``at``, its place in the
  timeline; a recalculated version keeps it);
- a tournament Elo change: the latest played of the player's games in the event that the site
  held when the change was written (a running event is recalculated after each result, so each
  change is dated by the games that moved it, whenever they were played; a recalculation after a
  revert, by the event's games);
- a pool anchoring: the event whose recalculation shifted the pool (the tournament change written
  just before it), dated as above;
- anything else (an adjustment, a revert of one, a recompute's correction): its own time.

``played_expression`` is that date as one SQL expression, for any queryset of changes (or of
rows that point at a change, through ``prefix``), so a page of any length costs one query.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, F, OuterRef, Subquery, When
from django.db.models.functions import Coalesce

from games.models import Game
from ratings.models import ChangeReason, RatingChange, RatingSystem


def played_expression(prefix: str = "") -> Any:
    """The change's played date (see the module); ``prefix`` is the path to the change from the
    queried model, e.g. ``"change__"`` for reviews."""

    def ref(name: str) -> Any:
        return OuterRef(f"{prefix}{name}")

    own_game = (
        Game.objects.filter(
            event_id=ref("event_id"),
            seats__player_id=ref("player_id"),
            created__lte=ref("created"),
        )
        .order_by("-played_at")
        .values("played_at")[:1]
    )
    # The event whose recalculation an anchoring followed: the last tournament change before it.
    anchored_event = (
        RatingChange.objects.filter(
            system=RatingSystem.ELO,
            reason=ChangeReason.TOURNAMENT,
            pk__lt=OuterRef(ref("pk")),
        )
        .order_by("-pk")
        .values("event_id")[:1]
    )
    anchored_game = (
        Game.objects.filter(event_id=Subquery(anchored_event), created__lte=ref("created"))
        .order_by("-played_at")
        .values("played_at")[:1]
    )
    return Coalesce(
        Case(
            When(**{f"{prefix}reason": ChangeReason.TOURNAMENT}, then=Subquery(own_game)),
            When(**{f"{prefix}reason": ChangeReason.ANCHOR}, then=Subquery(anchored_game)),
            default=F(f"{prefix}at"),
        ),
        F(f"{prefix}at"),
        F(f"{prefix}game__played_at"),
        F(f"{prefix}created"),
    )


def played_at(change: Any) -> Any:
    """A change's played date: the ``played`` annotation when the query made it, else its place
    in the timeline, else its game's played time, else when it was written."""
    when = getattr(change, "played", None) or getattr(change, "at", None)
    if when is None and getattr(change, "game_id", None) is not None:
        when = change.game.played_at
    return when or change.created
