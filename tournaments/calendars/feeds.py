"""A player's and an event's calendar, as events in words (`players.calendars.ical` writes
them): each round's deadline and each agreed match, with a stable UID per item, the time in
UTC, and the address of its page.

An agreed match lasts, in the calendar, as long as its games may: each of its
`games_per_match` games two players' time limits (a team's boards play side by side). Extra
games are not counted: a calendar entry is a guide, not a rule.

UIDs name the site's host and the object ("match-12-deadline@tantrix.example"): the same item
keeps its UID from one reading to the next, so a calendar program updates it in place when a
deadline moves.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from urllib.parse import urlsplit

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from players.calendars.ical import CalendarEvent
from players.models import Player
from tournaments.calendars import selectors
from tournaments.models import Event, EventFormat, Match, MatchArrangement, Round
from tournaments.pages import words

Absolute = Callable[[str], str]


def _host(absolute: Absolute) -> str:
    return urlsplit(absolute("/")).hostname or "tantrix-tournaments"


def _rounds_total(event: Event, rounds: dict[int, int]) -> int:
    return rounds.get(event.pk, 0) if event.format == EventFormat.KNOCKOUT else 0


def match_deadline_event(
    match: Match, *, rounds_total: int, absolute: Absolute, host: str
) -> CalendarEvent:
    """The deadline of a player's match: by then it must be played."""
    title = words.match_title(match, rounds_total)
    return CalendarEvent(
        uid=f"match-{match.pk}-deadline@{host}",
        start=match.round.deadline,
        summary=_("Deadline: %(match)s") % {"match": title},
        description=_(
            "%(event)s. The match must be played by this time; after it, the deadline settles it."
        )
        % {"event": match.event},
        url=absolute(words.match_url(match.pk)),
    )


def match_duration(event: Event) -> dt.timedelta:
    """How long an agreed match takes in a calendar: every game at both players' time limit."""
    return dt.timedelta(seconds=event.games_per_match * 2 * event.time_limit_seconds)


def agreed_match_event(
    arrangement: MatchArrangement, *, rounds_total: int, absolute: Absolute, host: str
) -> CalendarEvent:
    """An agreed match: when the two sides meet on the game server. One UID per match, so a
    time agreed again moves the same calendar entry."""
    match = arrangement.match
    return CalendarEvent(
        uid=f"match-{match.pk}@{host}",
        start=arrangement.starts_at,
        end=arrangement.starts_at + match_duration(match.event),
        summary=words.match_title(match, rounds_total),
        description=_("%(event)s. The time both sides agreed to play the match.")
        % {"event": match.event},
        url=absolute(words.match_url(match.pk)),
    )


def round_deadline_event(round_: Round, *, absolute: Absolute, host: str) -> CalendarEvent:
    """A round's deadline in an event's calendar: every match of the round is played by then."""
    event = round_.event
    return CalendarEvent(
        uid=f"round-{round_.pk}-deadline@{host}",
        start=round_.deadline,
        summary=_("Deadline: %(round)s, %(event)s") % {"round": round_, "event": event},
        description=_("Every match of %(round)s must be played by this time.") % {"round": round_},
        url=absolute(reverse("event-page", args=[event.pk])),
    )


def player_calendar_events(player: Player, absolute: Absolute) -> list[CalendarEvent]:
    """A player's feed (registered with players.calendars.sources): the agreed times and the
    deadlines of their matches still to play."""
    host = _host(absolute)
    since = timezone.now() - selectors.PAST_WINDOW
    matches = selectors.open_matches_of_player(player.pk, since=since)
    agreed = selectors.agreed_of_player(player, since=since)
    rounds = selectors.knockout_rounds(
        {m.event_id for m in matches} | {a.match.event_id for a in agreed}
    )
    return [
        *(
            agreed_match_event(
                a, rounds_total=_rounds_total(a.match.event, rounds), absolute=absolute, host=host
            )
            for a in agreed
        ),
        *(
            match_deadline_event(
                m, rounds_total=_rounds_total(m.event, rounds), absolute=absolute, host=host
            )
            for m in matches
        ),
    ]


def event_calendar_events(event: Event, absolute: Absolute) -> list[CalendarEvent]:
    """An event's feed: its agreed matches and its rounds' deadlines, earliest first."""
    host = _host(absolute)
    since = timezone.now() - selectors.PAST_WINDOW
    rounds_total = _rounds_total(event, selectors.knockout_rounds({event.pk}))
    events = [
        *(
            agreed_match_event(a, rounds_total=rounds_total, absolute=absolute, host=host)
            for a in selectors.agreed_of_event(event, since=since)
        ),
        *(
            round_deadline_event(round_, absolute=absolute, host=host)
            for round_ in selectors.event_rounds_with_deadlines(event.pk, since=since)
        ),
    ]
    return sorted(events, key=lambda item: (item.start, item.uid))
