"""What the calendars hold: a player's open matches with a round deadline, an event's rounds
with one, and what the reminders are due for."""

from __future__ import annotations

import datetime as dt

from django.db.models import Max, Q, QuerySet

from players.models import Player
from tournaments.arrangements.selectors import agreed_matches
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    Event,
    EventStatus,
    Match,
    MatchArrangement,
    MatchStatus,
    Round,
    sides_of,
)
from tournaments.selectors import entries_of_player

# Deadlines further back than this are history, not a calendar's business.
PAST_WINDOW = dt.timedelta(days=60)


def _match_rows(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.select_related(
        "event__championship", "round", *sides_of("entry_a"), *sides_of("entry_b")
    ).order_by("round__deadline", "pk")


def open_matches_of_player(player_id: int, *, since: dt.datetime) -> list[Match]:
    """The player's matches still to play (their own, a pair's or a team's) in published
    championships, whose round has a deadline since `since`."""
    entries = entries_of_player(player_id).values("pk")
    return list(
        _match_rows(
            Match.objects.filter(Q(entry_a__in=entries) | Q(entry_b__in=entries))
            .filter(is_bye=False, round__deadline__gte=since, event__status=EventStatus.DRAWN)
            .exclude(status__in=FINAL_MATCH_STATUSES)
        )
    )


def event_rounds_with_deadlines(event_id: int, *, since: dt.datetime) -> list[Round]:
    return list(
        Round.objects.filter(event_id=event_id, deadline__gte=since)
        .select_related("event__championship")
        .order_by("number")
    )


def knockout_rounds(event_ids: set[int]) -> dict[int, int]:
    """Each event's number of rounds, which knockout round names need ("Semi-final")."""
    return dict(
        Round.objects.filter(event_id__in=event_ids)
        .values("event_id")
        .annotate(last=Max("number"))
        .values_list("event_id", "last")
    )


def matches_before_deadline(*, now: dt.datetime, within: dt.timedelta) -> list[Match]:
    """Matches not yet played whose round's deadline falls within `within` from `now`, in
    running events of published championships: their players are reminded. A match waiting
    for a side has nobody to play."""
    return list(
        _match_rows(
            Match.objects.filter(
                round__deadline__gt=now,
                round__deadline__lte=now + within,
                round__deadline_processed=False,
                event__status=EventStatus.DRAWN,
                event__championship__published=True,
                is_bye=False,
                entry_a__isnull=False,
                entry_b__isnull=False,
                status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS],
            )
        )
    )


def agreed_of_player(player: Player, *, since: dt.datetime) -> list[MatchArrangement]:
    """The agreed times of the player's matches still to play, in published championships."""
    return list(
        agreed_matches(player=player, since=since).filter(
            match__event__championship__published=True
        )
    )


def agreed_of_event(event: Event, *, since: dt.datetime) -> list[MatchArrangement]:
    return list(agreed_matches(event=event, since=since))


def agreed_before(*, now: dt.datetime, within: dt.timedelta) -> list[MatchArrangement]:
    """Agreed matches starting within `within` from `now`, not yet final, in running events of
    published championships: their players are reminded."""
    return list(
        agreed_matches(since=now, until=now + within).filter(
            match__event__status=EventStatus.DRAWN,
            match__event__championship__published=True,
            match__entry_a__isnull=False,
            match__entry_b__isnull=False,
        )
    )
