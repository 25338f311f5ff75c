"""Reminders to the players of a match (issue 30): before their round's deadline while the
match is not played, and before the time they agreed. Each goes once to each player with an
account (a notice and its email, `players.notices.reminders`), in the player's language and
with the time in the player's zone.

The windows are settings (REMINDER_BEFORE_DEADLINE_HOURS, REMINDER_BEFORE_MATCH_HOURS); a
reminder is due from the start of its window until the time it is about, so a task that did
not run for a while (beat down) still sends it, late, and never after the time has passed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from players.models import Player
from players.notices.reminders import reminder_send_once, reminders_sent
from players.preferences.timezones import zone_for
from tournaments.calendars import selectors
from tournaments.models import EventFormat, Match
from tournaments.pages import words

# The ledger's kinds, and what the notices are about (a match: its page is their link).
ROUND_DEADLINE = "round_deadline"
MATCH_START = "match_start"
NOTICE_ABOUT = "match"


def _players_of(matches: Iterable[Match]) -> dict[int, list[Player]]:
    """match id -> the players of both sides who have an active account, in two queries (a
    team's whole roster plays, so all of it is reminded)."""
    members: dict[int, set[int]] = {}
    for match in matches:
        ids = members.setdefault(match.pk, set())
        for entry in (match.entry_a, match.entry_b):
            if entry is not None:
                ids.update(entry.members())
    players = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in={pid for ids in members.values() for pid in ids},
            user__isnull=False,
            user__is_active=True,
        ).select_related("user")
    }
    return {
        match_id: sorted((players[pid] for pid in ids if pid in players), key=lambda p: p.pk)
        for match_id, ids in members.items()
    }


def local_time(moment: dt.datetime, player: Player) -> str:
    """The moment as the player reads the site's times: in their zone (the site's when they
    chose none), in the active language's format, with the zone's abbreviation."""
    zone = zone_for(player.time_zone) or timezone.get_default_timezone()
    return formats.date_format(timezone.localtime(moment, zone), "DATETIME_FORMAT")


def _rounds_total(match: Match, rounds: dict[int, int]) -> int:
    return rounds.get(match.event_id, 0) if match.event.format == EventFormat.KNOCKOUT else 0


def _deadline_text(
    match: Match, deadline: dt.datetime, player: Player, rounds_total: int
) -> tuple[str, str]:
    title = words.match_title(match, rounds_total)
    text = _(
        "Reminder: your match %(match)s (%(event)s) is not finished, and its round's deadline "
        "is %(deadline)s. After the deadline the match is settled as it stands."
    ) % {"match": title, "event": match.event, "deadline": local_time(deadline, player)}
    subject = _("Deadline coming: %(match)s") % {"match": title}
    return text, subject


# The words of a reminder: the match, the time it is about, its reader, the knockout's rounds.
Words = Callable[[Match, dt.datetime, Player, int], tuple[str, str]]


def _send(*, kind: str, due: list[tuple[Match, dt.datetime]], words_of: Words) -> int:
    """Send `kind` reminders to the players of these matches, each about its time, once each;
    how many were sent."""
    if not due:
        return 0
    matches = [match for match, _when in due]
    sent_before = reminders_sent(kind, [m.pk for m in matches])
    rounds = selectors.knockout_rounds({m.event_id for m in matches})
    players = _players_of(matches)
    sent = 0
    for match, when in due:
        for player in players.get(match.pk, []):
            if sent_before.get((match.pk, player.user_id)) == when:
                continue  # sent already (the claim would say so too, at the cost of a write)
            with translation.override(player.language or settings.LANGUAGE_CODE):
                text, subject = words_of(match, when, player, _rounds_total(match, rounds))
            if reminder_send_once(
                kind=kind,
                object_id=match.pk,
                user=player.user,
                due=when,
                text=text,
                subject=subject,
                about=NOTICE_ABOUT,
                about_id=match.pk,
            ):
                sent += 1
    return sent


def _start_text(
    match: Match, start: dt.datetime, player: Player, rounds_total: int
) -> tuple[str, str]:
    title = words.match_title(match, rounds_total)
    text = _(
        "Reminder: your match %(match)s (%(event)s) starts %(start)s, the time both sides "
        "agreed. Meet your opponent on the game server."
    ) % {"match": title, "event": match.event, "start": local_time(start, player)}
    subject = _("Match coming: %(match)s") % {"match": title}
    return text, subject


def match_reminders_send(*, now: dt.datetime | None = None) -> int:
    """Remind the players of every agreed match that starts within REMINDER_BEFORE_MATCH_HOURS;
    how many reminders went out. A time agreed again is reminded again (once)."""
    now = now or timezone.now()
    within = dt.timedelta(hours=settings.REMINDER_BEFORE_MATCH_HOURS)
    agreed = selectors.agreed_before(now=now, within=within)
    return _send(
        kind=MATCH_START, due=[(a.match, a.starts_at) for a in agreed], words_of=_start_text
    )


def deadline_reminders_send(*, now: dt.datetime | None = None) -> int:
    """Remind the players of every match not played whose round ends within
    REMINDER_BEFORE_DEADLINE_HOURS; how many reminders went out."""
    now = now or timezone.now()
    within = dt.timedelta(hours=settings.REMINDER_BEFORE_DEADLINE_HOURS)
    matches = selectors.matches_before_deadline(now=now, within=within)
    return _send(
        kind=ROUND_DEADLINE, due=[(m, m.round.deadline) for m in matches], words_of=_deadline_text
    )


def reminders_send(*, now: dt.datetime | None = None) -> int:
    """Every reminder due now (the beat task)."""
    now = now or timezone.now()
    return match_reminders_send(now=now) + deadline_reminders_send(now=now)
