"""The audit log shows the targets the services stored in English in the reader's language."""

from __future__ import annotations

import pytest

from players.models import AuditEntry
from tournaments import format_words
from tournaments.models import AuditAction
from tournaments.pages import audit

GERMAN = {
    "Round %(number)s": "Runde %(number)s",
    "Semi-finals": "Halbfinale",
    "%(round)s, table %(table)s": "%(round)s, Tisch %(table)s",
    "no champion": "kein Sieger",
}


@pytest.mark.parametrize(
    ("action", "stored", "english", "translated"),
    [
        (AuditAction.DEADLINE_SET, "Round 3", "Round 3", "Runde 3"),
        (AuditAction.LINEUP_DEADLINE_SET, "Semi-finals", "Semi-finals", "Halbfinale"),
        (AuditAction.TABLE_RESULTS_ENTER, "Round 2", "Round 2", "Runde 2"),
        (
            AuditAction.TABLE_RESULT_CORRECT,
            "Round 2, table 4",
            "Round 2, table 4",
            "Runde 2, Tisch 4",
        ),
        (AuditAction.CHAMPION, "no champion", "no champion", "kein Sieger"),
        # Names stay as they were typed, even one that reads like a round's.
        (AuditAction.CHAMPION, "Semi-finals", "Semi-finals", "Semi-finals"),
        (AuditAction.EVENT_CREATE, "Round 3", "Round 3", "Round 3"),
    ],
)
def test_stored_targets_in_the_readers_language(monkeypatch, action, stored, english, translated):
    entry = AuditEntry(action=action, target=stored)
    assert audit.stored_target(entry) == english
    german = GERMAN.get
    monkeypatch.setattr(format_words, "gettext", lambda text: german(text, text))
    monkeypatch.setattr(audit, "_", lambda text: german(text, text))
    assert audit.stored_target(entry) == translated


REASONS = {
    "level at the deadline": "beim Stichtag gleichauf",
    "late entry: %(player)s": "Nachmeldung: %(player)s",
    "the match was already %(status)s": "das Match war schon %(status)s",
}


@pytest.mark.parametrize(
    ("stored", "translated"),
    [
        ("level at the deadline", "beim Stichtag gleichauf"),
        ("late entry: Ana Kovač", "Nachmeldung: Ana Kovač"),
        ("drop-out: Ana Kovač", "drop-out: Ana Kovač"),  # not translated yet: the English
        # The status is the model's label, in the reader's language (English here: no catalogue).
        ("the match was already decided", "das Match war schon decided"),
        # A reason a person typed stays as typed, even one that reads like the site's.
        ("late entry", "late entry"),
        ("the match was already lost", "the match was already lost"),
        (
            "Level at the deadline, said the controller",
            "Level at the deadline, said the controller",
        ),
    ],
)
def test_reasons_the_site_wrote_are_shown_in_the_readers_language(monkeypatch, stored, translated):
    assert audit.reason_shown(stored) == stored
    monkeypatch.setattr(audit, "_", lambda text: REASONS.get(text, text))
    assert audit.reason_shown(stored) == translated


@pytest.mark.django_db
def test_the_staff_audit_names_a_ruled_match_by_its_round_and_players(client, organiser):
    """The one audit trail for staff: a ruling's line names the match as its page does, not
    "match 12" (one query for the page's matches, whatever their number)."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.pages import builders
    from tournaments import services
    from tournaments.models import Match

    event = builders.knockout(organiser, builders.championship(organiser), 4, ruled_rounds=0)
    first = Match.objects.filter(event=event, round__number=1).order_by("bracket_index").first()
    services.match_rule(
        actor=organiser, match=first, winner_entry_id=first.entry_a_id, reason="sheet"
    )
    a, b = first.entry_a.player.display_name, first.entry_b.player.display_name
    staff = get_user_model().objects.create_superuser("auditor", "a@example.org", "x-42-tile")
    client.force_login(staff)
    page = client.get("/players/audit/?area=tournaments").content.decode()
    assert f"Semi-final: {a} v {b}" in page
    assert f"match {first.pk}<" not in page and f"match {first.pk}\n" not in page
