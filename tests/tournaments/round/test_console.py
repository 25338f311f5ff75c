"""The round console (issue 28, item 3c): counts and rows, reminders through the notices
service, audited, at most once per match an hour; organisers and controllers only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ReportedGame, ResultState
from players.models import AuditEntry, Notice
from tests.factories import PlayerFactory, make_organiser
from tournaments import services
from tournaments.console import selectors
from tournaments.console.services import match_remind, round_remind_unplayed
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(organiser):
    championship = services.championship_create(
        actor=organiser, name="Console Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Main draw", format="knockout"
    )
    for _ in range(8):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory(with_user=True))
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    round_ = event.rounds.get(number=1)
    return event, round_, list(Match.objects.filter(round=round_).order_by("bracket_index"))


def test_counts_played_waiting_overdue_and_disputed(drawn):
    event, round_, matches = drawn
    Match.objects.filter(pk=matches[0].pk).update(status=MatchStatus.DECIDED)
    console = selectors.round_console(round_)
    assert console.counts == {"played": 1, "waiting": 3, "overdue": 0, "disputed": 0}
    ReportedGame.objects.create(
        match_id=matches[1].pk,
        extensions={"match": matches[1].pk},
        state=ResultState.DISPUTED,
        played_at=timezone.now(),
    )
    later = round_.deadline + dt.timedelta(minutes=1)
    console = selectors.round_console(round_, now=later)
    assert console.counts == {"played": 1, "waiting": 0, "overdue": 2, "disputed": 1}
    assert console.rows[1].standing == "disputed"
    row = console.rows[2]
    assert row.standing == "overdue" and row.deadline == round_.deadline and row.can_remind
    assert {r.side_a for r in console.rows} == {m.entry_a.name for m in matches}


def test_a_reminder_tells_both_players_is_audited_and_waits_an_hour(
    drawn, organiser, django_capture_on_commit_callbacks
):
    event, round_, matches = drawn
    match = matches[0]
    with django_capture_on_commit_callbacks(execute=True):
        told = match_remind(actor=organiser, match=match)
    assert told == 2
    users = {match.entry_a.player.user_id, match.entry_b.player.user_id}
    notices = Notice.objects.filter(about="match", about_id=match.pk)
    assert set(notices.values_list("user_id", flat=True)) == users
    assert "please play your match" in notices.first().text
    assert len(mail.outbox) == 2
    entry = AuditEntry.objects.get(action="match_remind")
    assert entry.details["match"] == match.pk and entry.details["told"] == 2
    with pytest.raises(ValidationError) as refused:
        match_remind(actor=organiser, match=match)
    assert "one reminder an hour per match" in refused.value.messages[0]
    assert Notice.objects.filter(about="match", about_id=match.pk).count() == 2
    row = selectors.console_row(match)
    assert not row.can_remind and row.remind_after() == entry.created + dt.timedelta(hours=1)


def test_remind_all_unplayed_skips_the_played_and_the_recently_reminded(drawn, organiser):
    event, round_, matches = drawn
    Match.objects.filter(pk=matches[0].pk).update(status=MatchStatus.DECIDED)
    match_remind(actor=organiser, match=matches[1])
    done = round_remind_unplayed(actor=organiser, round_=round_)
    assert [r.match.pk for r in done.reminded] == [m.pk for m in matches[2:]]
    assert [r.match.pk for r in done.skipped] == [matches[1].pk]
    assert AuditEntry.objects.filter(action="match_remind").count() == 3


def test_a_played_match_is_not_reminded(drawn, organiser):
    _event, _round, matches = drawn
    Match.objects.filter(pk=matches[0].pk).update(status=MatchStatus.DECIDED)
    with pytest.raises(ValidationError) as refused:
        match_remind(actor=organiser, match=matches[0])
    assert "This match is played" in refused.value.messages[0]


def test_only_the_championships_organisers_and_controllers(drawn, organiser, user_player):
    event, round_, matches = drawn
    controller = make_organiser()
    services.championship_staff_set(
        actor=organiser, championship=event.championship, user=controller, role="controller"
    )
    assert match_remind(actor=controller, match=matches[0]) == 2
    for outsider in (make_organiser(), user_player.user):
        with pytest.raises(PermissionDenied):
            match_remind(actor=outsider, match=matches[1])
        with pytest.raises(PermissionDenied):
            round_remind_unplayed(actor=outsider, round_=round_)


def test_the_console_page_and_its_buttons(client, drawn, organiser):
    event, round_, matches = drawn
    client.force_login(organiser)
    event_page = client.get(reverse("event-page", args=[event.pk])).content.decode()
    url = reverse("round-console", args=[round_.pk])
    assert url in event_page
    body = client.get(url).content.decode()
    assert "Remind all unplayed" in body and matches[0].entry_a.name in body
    response = client.post(reverse("match-remind", args=[matches[0].pk]), follow=True)
    assert "2 players are reminded" in response.content.decode()
    response = client.post(reverse("match-remind", args=[matches[0].pk]), follow=True)
    assert "one reminder an hour per match" in response.content.decode()
    response = client.post(reverse("round-remind-unplayed", args=[round_.pk]), follow=True)
    text = response.content.decode()
    assert "The players of 3 matches are reminded." in text and "1 match is left out" in text
    client.force_login(make_organiser())
    assert client.get(url).status_code == 403


def test_the_console_api(drawn, organiser):
    event, round_, matches = drawn
    api = APIClient()
    api.force_authenticate(organiser)
    answer = api.get(f"/api/rounds/{round_.pk}/console/")
    assert answer.status_code == 200, answer.data
    assert answer.data["counts"]["waiting"] == 4 and len(answer.data["matches"]) == 4
    assert answer.data["matches"][0]["can_remind"] is True
    first = api.post(f"/api/matches/{matches[0].pk}/remind/")
    assert first.status_code == 200 and first.data["told"] == 2
    again = api.post(f"/api/matches/{matches[0].pk}/remind/")
    assert again.status_code == 400 and "match" in again.data
    bulk = api.post(f"/api/rounds/{round_.pk}/remind/")
    assert bulk.status_code == 200 and bulk.data["skipped"] == [matches[0].pk]
    outsider = APIClient()
    outsider.force_authenticate(make_organiser())
    assert outsider.get(f"/api/rounds/{round_.pk}/console/").status_code == 403


def test_a_reminder_is_written_in_each_players_language_and_time_zone(drawn, organiser):
    _event, round_, matches = drawn
    match = matches[0]
    reader = match.entry_a.player
    reader.language, reader.time_zone = "ru", "Asia/Tokyo"
    reader.save(update_fields=["language", "time_zone"])
    match_remind(actor=organiser, match=match)
    text = Notice.objects.get(user=reader.user, about="match").text
    assert text.startswith("Напоминание от организаторов")
    tokyo = timezone.localtime(round_.deadline, dt.timezone(dt.timedelta(hours=9)))
    assert f"{tokyo:%H:%M}" in text
    other = Notice.objects.get(user=match.entry_b.player.user, about="match").text
    assert other.startswith("Reminder from the organisers")
