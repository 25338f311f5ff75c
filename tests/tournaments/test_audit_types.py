"""Each championship audit action is a registered type (issue 27): its label, the shape of its
details (a write that does not fit is refused) and how it describes itself."""

from __future__ import annotations

import pytest

from players.audit.registry import audit_type
from players.models import AuditEntry
from tournaments import services
from tournaments.models import AuditAction
from tournaments.pages.audit import audit_lines

pytestmark = pytest.mark.django_db


def test_every_championship_action_is_a_registered_type_with_its_label():
    missing = [action for action in AuditAction.values if audit_type(action) is None]
    assert missing == []
    assert audit_type("match_rule").label == AuditAction.MATCH_RULE.label


def test_details_that_do_not_fit_the_shape_are_refused_and_nothing_is_written(organiser):
    championship = services.championship_create(
        actor=organiser, name="Shape Open", year=2026, category="open"
    )
    before = AuditEntry.objects.count()
    with pytest.raises(ValueError, match="no detail 'loser'"):
        services.audit(
            actor=organiser,
            championship=championship,
            action=AuditAction.MATCH_RULE,
            details={"winner": 3, "loser": 4},
        )
    with pytest.raises(ValueError, match="detail 'winner' is a str"):
        services.audit(
            actor=organiser,
            championship=championship,
            action=AuditAction.MATCH_RULE,
            details={"winner": "Ana"},
        )
    assert AuditEntry.objects.count() == before


def test_an_entry_is_described_by_its_own_type(organiser):
    championship = services.championship_create(
        actor=organiser, name="Words Open", year=2026, category="national", published=True
    )
    created = AuditEntry.objects.get(action="championship_create", championship_id=championship.pk)
    ruled = AuditEntry(action="match_rule", target="match 999999", details={"winner": None})
    plain = AuditEntry(action="event_import", details={"entries": 8, "matches": 7, "games": 14})
    lines = audit_lines([created, ruled, plain])
    assert [line.details for line in lines] == [
        "National championship; published: yes",
        "Void: no winner",
        "Entries: 8; Matches: 7; Games: 14",  # a type with no words of its own: Key: value
    ]
