"""The notes the ratings write themselves are stored in English and translated when shown;
a note a person typed is shown as typed (ratings/notes.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape

from players.audit.services import audit
from ratings import notes, services
from ratings.models import RatingChange
from tests.factories import PlayerFactory
from tests.ratings.helpers import make_game

pytestmark = pytest.mark.django_db

LATE = "recalculated in game order: an earlier game arrived late"


def _late_game_replays_a_step() -> tuple[object, RatingChange]:
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    now = timezone.now()
    later = make_game([b, c], [12, 18], played_at=now - dt.timedelta(minutes=10))
    services.game_ratings_apply(game_id=later.pk)
    late = make_game([a, c], [9, 19], played_at=now - dt.timedelta(minutes=20))
    services.game_ratings_apply(game_id=late.pk)
    step = RatingChange.objects.get(
        game=later, player=b, system="lobby", replaced_by__isnull=True, at__isnull=False
    )
    return b, step


def test_a_note_the_ratings_write_is_stored_in_english_whatever_the_language():
    with translation.override("ru"):
        _, step = _late_game_replays_a_step()
    assert step.note == LATE == notes.LATE_GAME_NOTE


def test_a_typed_note_is_shown_as_typed_and_a_written_one_through_the_catalogue(monkeypatch):
    monkeypatch.setattr(notes, "gettext", lambda message: f"<{message}>")
    assert notes.note_shown("fair play bonus") == "fair play bonus"
    assert notes.note_shown(LATE) == f"<{LATE}>"


def test_the_history_page_shows_a_written_note_in_the_readers_language(client, monkeypatch):
    player, _ = _late_game_replays_a_step()
    url = reverse("rating-history", args=[player.pk])
    assert LATE in client.get(url).content.decode()
    monkeypatch.setattr(notes, "gettext", lambda message: message.upper())
    assert LATE.upper() in client.get(url).content.decode()


def test_the_audit_trail_shows_a_reason_the_ratings_wrote_in_the_readers_language(
    admin_user, client, monkeypatch
):
    player = PlayerFactory()
    for reason in (notes.RECORD_INVALID_NOTE, "checked with the organiser"):
        audit(actor=None, action="review_flag", subject_player=player, reason=reason)
    monkeypatch.setattr(notes, "gettext", lambda message: message.upper())
    client.force_login(admin_user)
    for url in (reverse("audit-log"), reverse("rating-audit")):
        html = client.get(url).content.decode()
        assert escape(notes.RECORD_INVALID_NOTE.upper()) in html, url
        assert "checked with the organiser" in html, url
