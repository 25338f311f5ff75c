from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from tournaments.models import (
    AuditEntry,
    Championship,
    Entry,
    Event,
    EventFormat,
    Match,
    MatchGame,
)
from tournaments.permissions import can_rule


def championships_visible_to(user: Any) -> QuerySet[Championship]:
    championships = Championship.objects.prefetch_related("organisers", "controllers")
    if user and user.is_authenticated:
        if user.is_staff:
            return championships
        return championships.filter(
            Q(published=True) | Q(organisers=user) | Q(controllers=user)
        ).distinct()
    return championships.filter(published=True)


def events_visible_to(user: Any) -> QuerySet[Event]:
    visible = championships_visible_to(user).values("pk")
    return Event.objects.filter(championship__in=visible).select_related(
        "championship", "champion__player"
    )


def entries_for_event(event: Event) -> QuerySet[Entry]:
    return event.entries.select_related("player").order_by("seed", "created", "id")


def matches_for_event(event: Event) -> QuerySet[Match]:
    return (
        event.matches.select_related(
            "round", "entry_a__player", "entry_b__player", "winner__player"
        )
        .prefetch_related(Prefetch("match_games", queryset=MatchGame.objects.order_by("number")))
        .order_by("round__number", "group", "bracket_index", "id")
    )


def match_detail(match_id: int) -> Match:
    return (
        Match.objects.select_related(
            "event__championship", "round", "entry_a__player", "entry_b__player", "winner__player"
        )
        .prefetch_related(
            Prefetch(
                "match_games", queryset=MatchGame.objects.select_related("game").order_by("number")
            )
        )
        .get(pk=match_id)
    )


def bracket_rounds(event: Event) -> list[dict]:
    """A knockout's rounds, each with its matches top to bottom (for the bracket page)."""
    if event.format != EventFormat.KNOCKOUT:
        return []
    rounds: dict[int, dict] = {}
    for match in matches_for_event(event):
        slot = rounds.setdefault(match.round.number, {"round": match.round, "matches": []})
        slot["matches"].append(match)
    return [rounds[n] for n in sorted(rounds)]


def group_table_rows(event: Event) -> list[dict]:
    from tournaments.services import group_tables

    entries = {e.pk: e for e in entries_for_event(event)}
    result = []
    for group, table in group_tables(event).items():
        result.append(
            {
                "group": group,
                "rows": [
                    {
                        "entry": row.key,
                        "player": entries[row.key].player.display_name,
                        "player_id": entries[row.key].player_id,
                        "place": row.place,
                        "seed": row.seed,
                        "games": row.games,
                        "tps": row.tps,
                        "tps_available": row.tps_available,
                        "tp_percent": row.tp_percent,
                        "status": entries[row.key].status,
                    }
                    for row in table
                ],
            }
        )
    return result


def audit_for(championship: Championship) -> QuerySet[AuditEntry]:
    return championship.audit_entries.select_related("actor").order_by("-created", "-id")


def can_see_audit(user: Any, championship: Championship) -> bool:
    return can_rule(user, championship)


def entries_of_player(player_id: int) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(player_id=player_id, event__championship__published=True)
        .select_related("event__championship")
        .order_by("-event__championship__year", "event__stage")
    )
