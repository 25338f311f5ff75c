"""Agreed match times (issue 30, arranged on the match page) in the calendars and the
reminders before them."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from players.calendars import services
from players.models import Notice, ReminderSent
from tests.calendars.conftest import match_of
from tournaments.arrangements.services import arrangement_set
from tournaments.calendars.reminders import MATCH_START, reminders_send
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


def _agree(organiser, match: Match, hours: float, reason: str = "") -> dt.datetime:
    starts = (timezone.now() + dt.timedelta(hours=hours)).replace(second=0, microsecond=0)
    arrangement_set(actor=organiser, match=match, starts_at=starts, reason=reason)
    return starts


def _events(client, path: str) -> list:
    response = client.get(path)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return list(icalendar.Calendar.from_ical(response.content).walk("VEVENT"))


def test_an_agreed_match_is_in_both_players_feeds_and_the_events(client, cup, organiser):
    event, players = cup
    match = match_of(players[0])
    starts = _agree(organiser, match, 30)
    names = f"{match.entry_a.name} v {match.entry_b.name}"
    for entry in (match.entry_a, match.entry_b):
        token = services.calendar_feed_renew(user=entry.player.user).token
        items = _events(client, reverse("player-calendar", args=[token]))
        agreed = [i for i in items if str(i["UID"]) == f"match-{match.pk}@testserver"]
        (item,) = agreed
        assert item["DTSTART"].dt == starts and item["DTSTART"].dt.utcoffset() == dt.timedelta(0)
        # Two games at both players' 15 minutes: an hour.
        assert item["DTEND"].dt - item["DTSTART"].dt == dt.timedelta(hours=1)
        assert str(item["SUMMARY"]) == f"Semi-final: {names}"
        assert str(item["URL"]) == f"http://testserver/championships/matches/{match.pk}/"
        assert len(items) == 2  # and the deadline of the same match
    # Another player's feed does not hold it; the event's does, beside its rounds' deadlines.
    other = next(p for p in players if p not in (match.entry_a.player, match.entry_b.player))
    token = services.calendar_feed_renew(user=other.user).token
    uids = [str(i["UID"]) for i in _events(client, reverse("player-calendar", args=[token]))]
    assert f"match-{match.pk}@testserver" not in uids
    items = _events(client, reverse("event-calendar", args=[event.pk]))
    assert [str(i["UID"]) for i in items][0] == f"match-{match.pk}@testserver"
    assert len(items) == 3  # the match, the semi-finals' and the final's deadlines


def test_a_time_agreed_again_moves_the_same_entry(client, cup, organiser):
    _event, players = cup
    match = match_of(players[0])
    _agree(organiser, match, 30)
    later = _agree(organiser, match, 50, reason="Ana's flight was moved.")
    token = services.calendar_feed_renew(user=players[0].user).token
    items = _events(client, reverse("player-calendar", args=[token]))
    (item,) = [i for i in items if str(i["UID"]) == f"match-{match.pk}@testserver"]
    assert item["DTSTART"].dt == later


def _reminders(user) -> list[Notice]:
    return list(Notice.objects.filter(user=user, about="match"))


def test_both_players_are_reminded_once_before_an_agreed_match(cup, organiser):
    event, players = cup
    match = match_of(players[0])
    _agree(organiser, match, 10)
    assert reminders_send() == 2
    assert reminders_send() == 0
    for entry in (match.entry_a, match.entry_b):
        (notice,) = _reminders(entry.player.user)
        assert notice.about_id == match.pk
        assert "the time both sides agreed" in notice.text
    assert ReminderSent.objects.filter(kind=MATCH_START).count() == 2
    # Agreed again for another time: reminded again, once.
    _agree(organiser, match, 12, reason="Bela asked for two hours more.")
    assert reminders_send() == 2
    assert reminders_send() == 0
    assert len(_reminders(match.entry_a.player.user)) == 2


def test_no_reminder_for_a_match_far_off_or_decided(cup, organiser):
    _event, players = cup
    match = match_of(players[0])
    _agree(organiser, match, 30)  # beyond the 24 hours
    assert reminders_send() == 0
    other = match_of(players[1]) if match_of(players[1]) != match else match_of(players[2])
    _agree(organiser, other, 5)
    Match.objects.filter(pk=other.pk).update(status=MatchStatus.DECIDED)
    assert reminders_send() == 0
