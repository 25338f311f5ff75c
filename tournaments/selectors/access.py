"""Who may see what: the championships, events, matches and games a user may see, and the
championship's audit lines (who may read them is the `see_audit` rule)."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from players.models import AuditEntry
from players.types import User
from tournaments.models import (
    Championship,
    Event,
    Match,
    MatchGame,
    sides_of,
)
from tournaments.permissions import can_see


def championships_visible_to(user: User) -> QuerySet[Championship]:
    championships = Championship.objects.prefetch_related("organisers", "controllers")
    if user and user.is_authenticated:
        if user.is_staff:
            return championships
        return championships.filter(
            Q(published=True) | Q(organisers=user) | Q(controllers=user)
        ).distinct()
    return championships.filter(published=True)


def games_visible_to(user: User, games: QuerySet) -> QuerySet:
    """Hide the games of events in championships this user may not see (a games hook)."""
    if user and user.is_authenticated and user.is_staff:
        return games
    hidden = Event.objects.exclude(
        championship__in=championships_visible_to(user).values("pk")
    ).values("pk")
    return games.exclude(event_id__in=hidden)


def events_visible_to(user: User) -> QuerySet[Event]:
    visible = championships_visible_to(user).values("pk")
    return Event.objects.filter(championship__in=visible).select_related(
        "championship", *sides_of("champion")
    )


def match_visible_to(user: User, match_id: int) -> Match | None:
    """The match with what its page shows, if it exists and ``user`` may see its championship."""
    try:
        match = match_detail(match_id)
    except Match.DoesNotExist:
        return None
    return match if can_see(user, match.event.championship) else None


def match_detail(match_id: int) -> Match:
    return (
        Match.objects.select_related(
            "event__championship",
            "round",
            *sides_of("entry_a"),
            *sides_of("entry_b"),
            *sides_of("winner"),
        )
        .prefetch_related(
            Prefetch(
                "match_games", queryset=MatchGame.objects.select_related("game").order_by("number")
            )
        )
        .get(pk=match_id)
    )


def audit_for(championship: Championship) -> QuerySet[AuditEntry]:
    """The championship's lines of the one audit trail, newest first."""
    return (
        AuditEntry.objects.filter(championship_id=championship.pk)
        .select_related("actor")
        .order_by("-created", "-id")
    )
