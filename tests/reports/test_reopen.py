"""A ruled result is reopened once per ruling (issue 26, defect 8).

Reopening hands a ruled result back to the controllers; reopening it again before a new ruling
changes nothing and is refused (400), so it never writes a second audit line, notice or email.
Two organisers reopening at the same moment queue on the reported game's row lock: one wins,
the other is refused. Without the lock both "win" (shown first, as the project's other
concurrency tests do).
"""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import connection

from games.models import GameReport, ReportedGame, ResultState
from games.reports import answers
from players.models import AuditEntry, Notice
from tests.conftest import client_for


def _sides_of(match, ingrid_score: int, tomas_score: int) -> dict:
    if match.entry_a.player.display_name == "Ingrid":
        return {"score_a": ingrid_score, "score_b": tomas_score}
    return {"score_a": tomas_score, "score_b": ingrid_score}


def _ruled(match, ingrid, tomas, controller) -> ReportedGame:
    """Two contradicting score sheets, then a controller's ruling: version 1 stands."""
    url = "/api/games/score-sheets/"
    client_for(ingrid.user).post(
        url, {"match": match.pk, **_sides_of(match, 30, 10)}, format="json"
    )
    disputed = client_for(tomas.user).post(
        url, {"match": match.pk, **_sides_of(match, 10, 30)}, format="json"
    )
    assert disputed.data["status_code"] == "disputed", disputed.data
    reported = ReportedGame.objects.get()
    ruled = client_for(controller).post(
        f"/api/reports/{reported.pk}/rule/", {"version": 1, "reason": "Signed."}, format="json"
    )
    assert ruled.status_code == 201, ruled.data
    return reported


def _reopens() -> int:
    return AuditEntry.objects.filter(action="report_reopen").count()


@pytest.mark.django_db
def test_a_ruling_is_reopened_once(
    ingrid, tomas, match, controller, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        reported = _ruled(match, ingrid, tomas, controller)
    url = f"/api/reports/{reported.pk}/reopen/"
    notices, mails = Notice.objects.count(), len(mail.outbox)
    answers_ = []
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            answers_.append(
                client_for(organiser).post(url, {"reason": "Look again."}, format="json")
            )
    assert [a.status_code for a in answers_] == [200, 400, 400]
    assert "report" in answers_[1].data
    assert _reopens() == 1
    # One reopening told the rulers once (the controller and the organiser).
    told = Notice.objects.count() - notices
    assert told == 2 and len(mail.outbox) - mails == told
    # The web form answers the same.
    web = client_for(organiser)
    web.force_login(organiser)
    page = web.post(f"/games/reports/{reported.pk}/reopen/", {"reason": "Again."})
    assert page.status_code == 400 and _reopens() == 1
    # A new ruling may be reopened once more.
    ruled = client_for(controller).post(
        f"/api/reports/{reported.pk}/rule/", {"version": 2, "reason": "Other sheet."}, format="json"
    )
    assert ruled.status_code == 201, ruled.data
    assert client_for(organiser).post(url, {"reason": "Once more."}).status_code == 200
    assert client_for(organiser).post(url, {"reason": "And again."}).status_code == 400
    assert _reopens() == 2


@pytest.mark.django_db
def test_a_result_the_sides_agreed_is_not_reopened(
    ingrid, tomas, match, organiser, django_capture_on_commit_callbacks
):
    """Only a ruling is reopened: a result both sides agreed on was never ruled."""
    url = "/api/games/score-sheets/"
    with django_capture_on_commit_callbacks(execute=True):
        for user in (ingrid.user, tomas.user):
            client_for(user).post(
                url, {"match": match.pk, **_sides_of(match, 20, 11)}, format="json"
            )
    reported = ReportedGame.objects.get()
    assert reported.state == ResultState.STANDING
    response = client_for(organiser).post(
        f"/api/reports/{reported.pk}/reopen/", {"reason": "Why not."}, format="json"
    )
    assert response.status_code == 400 and _reopens() == 0


# --- Two organisers at the same moment -------------------------------------------------------


def _reopen_together(reported_id: int, users: list) -> tuple[list, list]:
    start = threading.Barrier(len(users), timeout=30)
    won: list = []
    refused: list = []

    def run(user) -> None:
        try:
            start.wait()
            won.append(answers.report_reopen(actor=user, reported_game_id=reported_id, reason="x"))
        except Exception as exc:  # the refusal, read below
            refused.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return won, refused


@pytest.fixture
def ruled_and_two_organisers(ingrid, tomas, match, controller, organiser, co_organiser):
    match.event.championship.organisers.add(co_organiser)
    with_callbacks = _ruled(match, ingrid, tomas, controller)
    return with_callbacks, [organiser, co_organiser]


@pytest.mark.django_db(transaction=True)
def test_without_the_lock_two_organisers_both_reopen(ruled_and_two_organisers, monkeypatch):
    reported, organisers = ruled_and_two_organisers
    monkeypatch.setattr(answers, "_locked_reported", lambda pk: ReportedGame.objects.get(pk=pk))
    both_read = threading.Barrier(2, timeout=30)
    original = answers.reopen_refusal

    def refusal_after_both_read(reported_game):
        both_read.wait()
        return original(reported_game)

    monkeypatch.setattr(answers, "reopen_refusal", refusal_after_both_read)
    won, refused = _reopen_together(reported.pk, organisers)
    assert (len(won), refused) == (2, [])
    assert _reopens() == 2


@pytest.mark.django_db(transaction=True)
def test_with_the_lock_one_organiser_reopens(ruled_and_two_organisers):
    from django.core.exceptions import ValidationError

    reported, organisers = ruled_and_two_organisers
    won, refused = _reopen_together(reported.pk, organisers)
    assert len(won) == 1 and len(refused) == 1
    assert isinstance(refused[0], ValidationError) and "report" in refused[0].message_dict
    assert _reopens() == 1
    reported.refresh_from_db()
    assert reported.state == ResultState.DISPUTED
    assert GameReport.objects.filter(reported_game=reported, standing=True).count() == 1
