"""Reminders before a round's deadline (issue 30): a notice and an email to each player of a
match not played, once each however often and however many at once the task runs, in the
player's language and zone."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone

from players.models import Notice, ReminderSent
from tests.calendars.conftest import match_of
from tests.tournaments.test_teams import make_team
from tournaments import services
from tournaments.calendars.reminders import ROUND_DEADLINE, reminders_send
from tournaments.calendars.tasks import send_reminders
from tournaments.models import Match, MatchStatus, Round


def _deadline_in(event, hours: float, number: int = 1) -> dt.datetime:
    deadline = (timezone.now() + dt.timedelta(hours=hours)).replace(second=0, microsecond=0)
    Round.objects.filter(event=event, number=number).update(deadline=deadline)
    return deadline


@pytest.mark.django_db
def test_both_players_of_an_unplayed_match_are_reminded_once(
    cup, django_capture_on_commit_callbacks
):
    event, players = cup
    _deadline_in(event, 10)
    with django_capture_on_commit_callbacks(execute=True):  # the emails go after the commit
        assert reminders_send() == 4  # two matches, two players each
    assert reminders_send() == 0
    assert send_reminders() == 0  # the beat task: the same, once more
    for player in players:
        (notice,) = Notice.objects.filter(user=player.user)
        match = match_of(player)
        assert notice.about == "match" and notice.about_id == match.pk
        assert "is not finished" in notice.text and player.display_name in notice.text
    assert len(mail.outbox) == 4
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.user.email for p in players)
    assert ReminderSent.objects.filter(kind=ROUND_DEADLINE).count() == 4


@pytest.mark.django_db
def test_no_reminder_outside_the_window_or_for_a_finished_match(cup):
    event, players = cup
    hours = settings.REMINDER_BEFORE_DEADLINE_HOURS
    _deadline_in(event, hours + 1)
    assert reminders_send() == 0  # not yet
    _deadline_in(event, -1)
    assert reminders_send() == 0  # passed: too late to remind
    _deadline_in(event, hours - 1)
    Match.objects.filter(pk=match_of(players[0]).pk).update(status=MatchStatus.DECIDED)
    assert reminders_send() == 2  # only the other match's players
    assert not Notice.objects.filter(user=players[0].user).exists()


@pytest.mark.django_db
def test_an_unpublished_championship_reminds_nobody(cup):
    event, _players = cup
    event.championship.published = False
    event.championship.save(update_fields=["published"])
    _deadline_in(event, 10)
    assert reminders_send() == 0


@pytest.mark.django_db
def test_a_moved_deadline_is_reminded_again_once(cup):
    event, players = cup
    _deadline_in(event, 10)
    assert reminders_send() == 4
    _deadline_in(event, 20)  # extended by the organiser
    assert reminders_send() == 4
    assert reminders_send() == 0
    assert Notice.objects.filter(user=players[0].user).count() == 2
    assert ReminderSent.objects.count() == 4


@pytest.mark.django_db
def test_the_reminder_speaks_the_players_language_and_zone(cup):
    event, players = cup
    ana = players[0]
    ana.language, ana.time_zone = "cs", "Asia/Tokyo"
    ana.save(update_fields=["language", "time_zone"])
    deadline = _deadline_in(event, 10)
    reminders_send()
    text = Notice.objects.get(user=ana.user).text
    tokyo = deadline.astimezone(dt.timezone(dt.timedelta(hours=9)))
    assert f"{tokyo:%H:%M}" in text and "JST" in text
    assert "Reminder" not in text  # in Czech
    # Dora reads the site's zone, in English.
    dora = Notice.objects.get(user=players[3].user).text
    assert dora.startswith("Reminder:")
    assert f"{timezone.localtime(deadline):%H:%M}" in dora


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_send_each_reminder_once(cup):
    """Two workers run the task at the same moment (beat twice, or a retry beside a run): the
    ledger's unique row makes one of them the sender of each reminder."""
    event, players = cup
    _deadline_in(event, 10)
    start = threading.Barrier(2)
    results: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            start.wait()
            results.append(reminders_send())
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sum(results) == 4
    for player in players:
        assert Notice.objects.filter(user=player.user).count() == 1
    assert ReminderSent.objects.count() == 4


def test_the_task_is_in_the_beat_schedule():
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-send-reminders"]
    assert entry["task"] == "tournaments.calendars.tasks.send_reminders"
    assert send_reminders.name == entry["task"]


@pytest.mark.django_db
def test_a_team_matchs_whole_rosters_are_reminded_once(organiser):
    """Every player of both rosters plays a board, so each is reminded (once); a player of the
    roster without an account is skipped."""
    championship = services.championship_create(
        actor=organiser, name="Nations", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser,
        championship=championship,
        name="Teams",
        format="knockout",
        entry_kind="team",
        team_boards=5,
        games_per_match=1,
    )
    teams = [
        make_team(organiser, championship, "GB", "GB", size=6),
        make_team(organiser, championship, "DE", "DE"),
    ]
    for team in teams:
        services.team_enter(actor=organiser, event=event, team=team)
    services.draw_generate(actor=organiser, event=event, draw_seed=1)
    _deadline_in(event, 10)
    members = [m.player for team in teams for m in team.members.select_related("player__user")]
    members[-1].user.is_active = False
    members[-1].user.save(update_fields=["is_active"])
    assert reminders_send() == 10  # six and five, one of them with no active account
    assert reminders_send() == 0
    for player in members[:-1]:
        assert Notice.objects.filter(user=player.user, about="match").count() == 1
