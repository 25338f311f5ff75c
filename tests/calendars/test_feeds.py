"""Calendar feeds (issue 30): a player's private feed and an event's public one, read back with
the `icalendar` parser library as a calendar program would."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from players.calendars import services
from players.calendars.ical import CalendarEvent, calendar_text, fold
from players.models import CalendarFeed
from tests.calendars.conftest import match_of
from tests.conftest import client_for
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Match, MatchStatus, Round

pytestmark = pytest.mark.django_db


def _parse(response) -> icalendar.Calendar:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode("utf-8")
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    assert body.endswith("\r\n") and "\n" not in body.replace("\r\n", "")
    return icalendar.Calendar.from_ical(body)


def _events(calendar: icalendar.Calendar) -> list:
    return list(calendar.walk("VEVENT"))


def _feed_path(user) -> str:
    feed = services.calendar_feed_renew(user=user)
    return reverse("player-calendar", args=[feed.token])


def test_a_players_feed_holds_their_open_matches_deadlines_in_utc(client, cup):
    event, players = cup
    ana = players[0]
    match = match_of(ana)
    calendar = _parse(client.get(_feed_path(ana.user)))
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    (item,) = _events(calendar)  # round 2's match is not Ana's yet: one open match
    assert str(item["UID"]) == f"match-{match.pk}-deadline@testserver"
    start = item["DTSTART"].dt
    assert start.utcoffset() == dt.timedelta(0)
    assert start == match.round.deadline.replace(microsecond=0)
    assert item.content_line("DTSTART", item["DTSTART"]).endswith("Z")
    assert item["DTSTAMP"].dt.tzinfo is not None
    # The summary in words, names with a comma and a semicolon escaped and read back whole.
    opponent = match.entry_b if match.entry_a.player_id == ana.pk else match.entry_a
    names = f"{match.entry_a.name} v {match.entry_b.name}"
    assert str(item["SUMMARY"]) == f"Deadline: Semi-final: {names}"
    assert opponent.name in str(item["SUMMARY"])
    assert "North, South; Cup 2026 · Main draw" in str(item["DESCRIPTION"])
    assert str(item["URL"]) == f"http://testserver/championships/matches/{match.pk}/"
    raw = client.get(_feed_path(ana.user)).content.decode()
    assert "Ana\\, the First" in raw or "Bela\\; Second" in raw


def test_uids_are_stable_from_one_reading_to_the_next(client, cup):
    _event, players = cup
    path = _feed_path(players[1].user)
    first = [str(e["UID"]) for e in _events(_parse(client.get(path)))]
    second = [str(e["UID"]) for e in _events(_parse(client.get(path)))]
    assert first == second and len(first) == 1


def test_a_played_match_leaves_the_feed(client, cup):
    _event, players = cup
    match = match_of(players[2])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.WALKOVER)
    assert _events(_parse(client.get(_feed_path(players[2].user)))) == []


def test_the_feed_speaks_the_players_language(client, cup):
    _event, players = cup
    players[3].language = "hu"
    players[3].save(update_fields=["language"])
    calendar = _parse(client.get(_feed_path(players[3].user)))
    (item,) = _events(calendar)
    assert not str(item["SUMMARY"]).startswith("Deadline")


def test_an_events_feed_holds_every_rounds_deadline(client, cup):
    event, _players = cup
    calendar = _parse(client.get(reverse("event-calendar", args=[event.pk])))
    items = _events(calendar)
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    assert [str(i["UID"]) for i in items] == [f"round-{r.pk}-deadline@testserver" for r in rounds]
    assert [i["DTSTART"].dt for i in items] == [r.deadline.replace(microsecond=0) for r in rounds]
    assert str(items[0]["SUMMARY"]) == "Deadline: Semi-finals, North, South; Cup 2026 · Main draw"
    assert str(items[0]["URL"]) == f"http://testserver/championships/events/{event.pk}/"
    # An X- property the parser does not know: it keeps the text as written, escaped.
    assert calendar["X-WR-CALNAME"] == "Tantrix: North\\, South\\; Cup 2026 · Main draw"


def test_an_unpublished_events_feed_is_hidden_from_all_but_its_staff(client, cup, organiser):
    event, players = cup
    event.championship.published = False
    event.championship.save(update_fields=["published"])
    path = reverse("event-calendar", args=[event.pk])
    assert client.get(path).status_code == 404
    client.force_login(players[0].user)
    assert client.get(path).status_code == 404
    client.force_login(organiser)
    assert client.get(path).status_code == 200
    client.logout()
    # Nor does a player's feed show the matches of an unpublished championship.
    assert _events(_parse(client.get(_feed_path(players[0].user)))) == []


# --- The private address ------------------------------------------------------------------


def test_a_new_address_replaces_the_old_which_answers_404(client, cup):
    _event, players = cup
    user = players[0].user
    old = _feed_path(user)
    new = _feed_path(user)
    assert old != new
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    assert CalendarFeed.objects.filter(player=players[0]).count() == 1


def test_turned_off_the_address_answers_404(client, cup):
    _event, players = cup
    path = _feed_path(players[0].user)
    assert services.calendar_feed_revoke(user=players[0].user) is True
    assert client.get(path).status_code == 404
    assert services.calendar_feed_revoke(user=players[0].user) is False


def test_a_deactivated_accounts_address_answers_404(client, cup):
    _event, players = cup
    path = _feed_path(players[0].user)
    players[0].user.is_active = False
    players[0].user.save(update_fields=["is_active"])
    assert client.get(path).status_code == 404


def test_tokens_cannot_be_guessed():
    user = UserFactory()
    PlayerFactory(user=user)
    tokens = {services.calendar_feed_renew(user=user).token for _ in range(20)}
    assert len(tokens) == 20
    # 32 random bytes: 43 characters of the URL-safe alphabet, 256 bits.
    assert all(len(token) == 43 for token in tokens)


def test_unknown_and_malformed_tokens_answer_404(client, cup):
    _event, players = cup
    token = services.calendar_feed_renew(user=players[0].user).token
    for wrong in (token[:-1], token + "x", token.upper(), "x" * 200, "-"):
        assert client.get(f"/players/calendar/{wrong}.ics").status_code == 404


def test_only_a_player_has_a_calendar():
    user = UserFactory()  # an account with no player
    response = client_for(user).post("/api/calendar/renew/")
    assert response.status_code == 403


# --- The profile's buttons and the API ---------------------------------------------------


def test_the_profile_shows_the_address_to_its_player_only(client, cup):
    _event, players = cup
    ana = players[0]
    client.force_login(ana.user)
    page = client.get(reverse("player-detail", args=[ana.pk])).content.decode()
    assert 'id="calendar"' in page and "calendar-url" not in page
    response = client.post(reverse("player-calendar-renew"))
    assert response.status_code == 302 and response["Location"].endswith("#calendar")
    token = CalendarFeed.objects.get(player=ana).token
    page = client.get(reverse("player-detail", args=[ana.pk])).content.decode()
    assert f"http://testserver/players/calendar/{token}.ics" in page
    client.post(reverse("player-calendar-revoke"))
    assert not CalendarFeed.objects.filter(player=ana).exists()
    # Another person's view of Ana's profile has no calendar.
    services.calendar_feed_renew(user=ana.user)
    token = CalendarFeed.objects.get(player=ana).token
    client.force_login(players[1].user)
    page = client.get(reverse("player-detail", args=[ana.pk])).content.decode()
    assert token not in page and 'id="calendar"' not in page


def test_the_web_buttons_need_a_login_and_a_post(client):
    for name in ("player-calendar-renew", "player-calendar-revoke"):
        assert client.post(reverse(name)).status_code == 302  # to the login page
        assert not CalendarFeed.objects.exists()
    user = UserFactory()
    PlayerFactory(user=user)
    client.force_login(user)
    assert client.get(reverse("player-calendar-renew")).status_code == 405


def test_the_api_shows_renews_and_revokes_my_address(cup, api_client):
    _event, players = cup
    user = players[0].user
    assert api_client.get("/api/calendar/").status_code in (401, 403)
    assert api_client.post("/api/calendar/renew/").status_code in (401, 403)
    mine = client_for(user)
    assert mine.get("/api/calendar/").json() == {"url": None}
    made = mine.post("/api/calendar/renew/")
    assert made.status_code == 201
    url = made.json()["url"]
    assert mine.get("/api/calendar/").json() == {"url": url}
    path = url.removeprefix("http://testserver")
    assert mine.get(path).status_code == 200
    renewed = mine.post("/api/calendar/renew/").json()["url"]
    assert renewed != url and mine.get(path).status_code == 404
    assert mine.post("/api/calendar/revoke/").json() == {"url": None}
    assert mine.get(renewed.removeprefix("http://testserver")).status_code == 404
    # Another player's calls touch only their own calendar.
    services.calendar_feed_renew(user=user)
    client_for(players[1].user).post("/api/calendar/revoke/")
    assert CalendarFeed.objects.filter(player=players[0]).exists()


# --- The writer alone ----------------------------------------------------------------------


def test_text_is_escaped_and_long_lines_folded_without_splitting_a_character():
    start = dt.datetime(2026, 12, 3, 18, 5, tzinfo=dt.UTC)
    summary = "Ünal, Zoë; \\ Łukasz\nnext line " + "ő" * 80
    text = calendar_text(
        name="Feed",
        events=[CalendarEvent(uid="x@y", start=start, summary=summary, url="http://a/b,c")],
        stamp=start,
    )
    (item,) = icalendar.Calendar.from_ical(text).walk("VEVENT")
    assert str(item["SUMMARY"]) == summary
    assert str(item["URL"]) == "http://a/b,c"
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert fold("short") == "short"


def test_naive_times_and_events_ending_before_they_start_are_refused():
    naive = dt.datetime(2026, 12, 3, 18, 5)
    with pytest.raises(ValueError):
        calendar_text(name="F", events=[CalendarEvent("u", naive, "s")], stamp=timezone.now())
    now = timezone.now()
    with pytest.raises(ValueError):
        calendar_text(name="F", events=[CalendarEvent("u", now, "s", end=now)], stamp=now)
