"""Champions (``manage.py check_consistency``)."""

from __future__ import annotations

from games.consistency import Breach
from tournaments.consistency.matches import entry_label
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
)


def champion_breaches() -> list[Breach]:
    out = []
    for event_id, status, champion, c_event, c_status in (
        Event.objects.filter(champion__isnull=False)
        .order_by("pk")
        .values_list("pk", "status", "champion_id", "champion__event_id", "champion__status")
    ):
        ids = {"event": event_id, "entry": champion}
        if status != EventStatus.FINISHED:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id} is {status} but already has a champion (entry {champion})",
                    ids,
                )
            )
        if c_event != event_id:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s champion, entry {champion}, is an entry of event "
                    f"{c_event}",
                    ids,
                )
            )
        if c_status != EntryStatus.CHAMPION:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s champion, entry {champion}, is {c_status}",
                    ids,
                )
            )
    finals = Match.objects.filter(
        event__format=EventFormat.KNOCKOUT,
        next_match__isnull=True,
        status__in=FINAL_MATCH_STATUSES,
        bracket_index__isnull=False,
    ).values_list("pk", "event_id", "winner_id", "event__champion_id", "event__status")
    for match_id, event_id, winner, champion, status in finals.order_by("pk"):
        if winner != champion or status != EventStatus.FINISHED:
            out.append(
                Breach(
                    "champion",
                    f"event {event_id}'s final, match {match_id}, is won by {entry_label(winner)}, "
                    f"but the event ({status}) has {entry_label(champion)} as champion",
                    {"event": event_id, "match": match_id, "entry": winner},
                )
            )
    for entry_id, event_id, champion in (
        Entry.objects.filter(status=EntryStatus.CHAMPION)
        .order_by("pk")
        .values_list("pk", "event_id", "event__champion_id")
    ):
        if champion != entry_id:
            out.append(
                Breach(
                    "champion",
                    f"entry {entry_id} has the champion status, but event {event_id}'s champion "
                    f"is {entry_label(champion)}",
                    {"event": event_id, "entry": entry_id},
                )
            )
    return out
