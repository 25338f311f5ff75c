"""Review flags written with the changes: large swings, repeated results, invalidated games."""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game
from players.types import User
from ratings.models import (
    AuditAction,
    ChangeReason,
    RatingChange,
    RatingSystem,
    Review,
    ReviewKind,
)
from ratings.selectors import both_seats
from ratings.services.audit import rating_audit
from ratings.services.rated_games import RatedGame

# --- Review flags ------------------------------------------------------------------------------


def swing_reviews(changes: Iterable[RatingChange]) -> list[Review]:
    """Flags for game changes that move a 0-1000 rating by more than the swing setting (new
    changes, so none is flagged yet). The monthly table mirrors the lobby game by game, so its
    swings are not flagged twice."""
    limit = settings.RATINGS_REVIEW_SWING_POINTS
    return [
        Review(
            kind=ReviewKind.LARGE_SWING,
            change=change,
            player_id=change.player_id,
            game_id=change.game_id,
            detail={"system": change.system, "delta": round(change.delta, 3)},
        )
        for change in changes
        if change.system != RatingSystem.MONTHLY and abs(change.delta) >= limit
    ]


def flag_elo_swings(changes: Iterable[RatingChange]) -> None:
    """Queue tournament Elo changes for review when they move a rating by at least
    ``RATINGS_REVIEW_SWING_ELO`` (the caller passes only established players' changes).

    A recalculated event writes a new change each time, hence ``get_or_create``.
    """
    for change in changes:
        if abs(change.delta) >= settings.RATINGS_REVIEW_SWING_ELO:
            Review.objects.get_or_create(
                kind=ReviewKind.LARGE_SWING,
                change=change,
                defaults={
                    "player_id": change.player_id,
                    "game_id": None,
                    "detail": {"system": RatingSystem.ELO, "delta": round(change.delta, 3)},
                },
            )


def repeated_results_reviews(
    decisive: Sequence[tuple[RatedGame, int, int, RatingChange]],
) -> list[Review]:
    """Flag the same player beating the same opponent many times within the window.

    ``decisive`` are the batch's lobby wins as (game, winner, loser, winner's change), in game
    order. One query reads every two-player win between those pairs in the span the batch needs
    (any game, rated or not, as the count always was); the counts are taken in memory. Flagged
    once per pair and window: earlier flags are read only when a count reaches the setting.
    """
    if not decisive:
        return []
    hours = settings.RATINGS_REVIEW_REPEAT_HOURS
    window = dt.timedelta(hours=hours)
    pairs = {(winner, loser) for _, winner, loser, _ in decisive}
    players = {player for pair in pairs for player in pair}
    wins: dict[tuple[int, int], list[dt.datetime]] = defaultdict(list)
    for played, winner_seat, p0, p1 in (
        Game.objects.filter(
            players_count=2,
            is_pairs=False,
            winner_seat__in=(0, 1),
            played_at__gte=min(game.played_at for game, *_ in decisive) - window,
            played_at__lte=max(game.played_at for game, *_ in decisive),
        )
        .annotate(**both_seats())
        .filter(first__player_id__in=players, second__player_id__in=players)
        .values_list("played_at", "winner_seat", "first__player_id", "second__player_id")
    ):
        pair = (p0, p1) if winner_seat == 0 else (p1, p0)
        if pair in pairs:
            wins[pair].append(played)
    for times in wins.values():
        times.sort()
    reviews: list[Review] = []
    flagged: set[tuple[int, Any]] | None = None
    for game, winner, loser, change in decisive:
        times = wins.get((winner, loser), [])
        count = bisect_right(times, game.played_at) - bisect_left(times, game.played_at - window)
        if count < settings.RATINGS_REVIEW_REPEAT_GAMES:
            continue
        if flagged is None:
            flagged = {
                (player_id, (detail or {}).get("opponent"))
                for player_id, detail in Review.objects.filter(
                    kind=ReviewKind.REPEATED_RESULTS,
                    player_id__in={w for _, w, _, _ in decisive},
                    created__gte=timezone.now() - window,
                ).values_list("player_id", "detail")
            }
        if (winner, loser) in flagged:
            continue
        flagged.add((winner, loser))
        reviews.append(
            Review(
                kind=ReviewKind.REPEATED_RESULTS,
                change=change,
                game_id=game.id,
                player_id=winner,
                detail={"opponent": loser, "wins": count, "hours": hours},
            )
        )
    return reviews


def game_review_flag(*, game_id: int, note: str = "", actor: User | None = None) -> Review | None:
    """Flag a rated game for review because it was later ruled on or invalidated.

    The seam for ``tournaments`` (a match ruling) and for the sweep (a record no longer valid):
    an admin then approves the ratings as they stand or reverts the game. Idempotent: a game is
    flagged once. None when the game moved no rating.
    """
    with transaction.atomic():
        change = (
            RatingChange.objects.filter(game_id=game_id, reason=ChangeReason.GAME)
            .order_by("id")
            .first()
        )
        if change is None:
            return None
        review, created = Review.objects.get_or_create(
            kind=ReviewKind.GAME_INVALIDATED,
            game_id=game_id,
            defaults={
                "change": change,
                "player_id": change.player_id,
                "detail": {"note": note} if note else {},
            },
        )
        if created and actor is not None:
            rating_audit(actor=actor, action=AuditAction.REVIEW_FLAG, reason=note, review=review)
        return review
