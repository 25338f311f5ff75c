"""States as transitions (issue 27): the match, entry and event statuses move only along their
tables, through `players.audit.transitions.transition`, which writes the move's audit entry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from players.audit.transitions import IllegalTransition, status_table, transition
from players.models import AuditEntry
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import (
    ENTRY_STATUSES,
    EVENT_STATUSES,
    MATCH_STATUSES,
    AuditAction,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Match,
    MatchStatus,
)
from tournaments.services.audit import audit_entry

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def knockout(organiser):
    championship = services.championship_create(
        actor=organiser, name="Transitions Cup", year=2026, category="open", published=True
    )
    event = services.event_create(
        actor=organiser, championship=championship, name="Main draw", format="knockout"
    )
    for _ in range(4):
        services.entry_register(actor=organiser, event=event, player=PlayerFactory())
    services.draw_generate(actor=organiser, event=event, draw_seed=3)
    return Event.objects.get(pk=event.pk)


def test_each_status_has_its_table():
    assert status_table(Match) is MATCH_STATUSES
    assert status_table(Entry) is ENTRY_STATUSES
    assert status_table(Event) is EVENT_STATUSES
    # Every status of each field is in its table, so no status is stranded or unknown.
    for table in (MATCH_STATUSES, ENTRY_STATUSES, EVENT_STATUSES):
        for status in table.choices.values:
            assert table.allows(status, status)


def test_a_decided_match_never_goes_back_to_play(knockout):
    match = knockout.matches.filter(round__number=1).first()
    match.refresh_from_db()
    services.match_rule(
        actor=knockout.championship.organisers.first(),
        match=match,
        winner_entry_id=match.entry_a_id,
        reason="the other side never came",
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.RULED
    with pytest.raises(IllegalTransition) as refused:
        transition(match, MatchStatus.IN_PROGRESS)
    # A domain error: a ValidationError on the status, in words, never a code.
    assert isinstance(refused.value, ValidationError)
    assert refused.value.message_dict == {
        "status": ["This match cannot go from “Ruled by an organiser” to “In progress”."]
    }
    match.refresh_from_db()
    assert match.status == MatchStatus.RULED


def test_an_illegal_move_writes_nothing_not_even_its_audit_entry(knockout, organiser):
    entry = knockout.entries.first()
    entries_before = AuditEntry.objects.count()
    with pytest.raises(IllegalTransition):
        transition(
            Entry.objects.filter(pk=entry.pk),
            EntryStatus.PENDING,
            audit=audit_entry(
                actor=organiser,
                championship=knockout.championship,
                event=knockout,
                action=AuditAction.ENTRY_WITHDRAW,
            ),
        )
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE
    assert AuditEntry.objects.count() == entries_before


def test_a_drawn_event_does_not_reopen_registration(knockout, organiser):
    with pytest.raises(ValidationError):
        services.event_registration_set(actor=organiser, event=knockout, open_=True)
    with pytest.raises(IllegalTransition):
        transition(knockout, EventStatus.REGISTRATION)
    assert Event.objects.get(pk=knockout.pk).status == EventStatus.DRAWN


def test_a_move_writes_its_status_fields_and_audit_entry_together(knockout, organiser):
    entry = knockout.entries.order_by("pk").first()
    moved = transition(
        entry,
        EntryStatus.WITHDRAWN,
        fields={"left_after_round": 1},
        audit=audit_entry(
            actor=organiser,
            championship=knockout.championship,
            event=knockout,
            action=AuditAction.ENTRY_WITHDRAW,
            target=entry.name,
        ),
    )
    assert moved is entry
    stored = Entry.objects.get(pk=entry.pk)
    assert (stored.status, stored.left_after_round) == (EntryStatus.WITHDRAWN, 1)
    written = AuditEntry.objects.filter(action="entry_withdraw", event_id=knockout.pk).get()
    assert written.target == entry.name


def test_rows_move_from_the_named_statuses_only(knockout):
    entries = list(knockout.entries.order_by("pk"))
    Entry.objects.filter(pk=entries[0].pk).update(status=EntryStatus.WITHDRAWN)  # test set-up
    moved = transition(
        Entry.objects.filter(pk__in=[e.pk for e in entries]),
        EntryStatus.ELIMINATED,
        from_=(EntryStatus.ACTIVE,),
    )
    assert moved == len(entries) - 1
    assert Entry.objects.get(pk=entries[0].pk).status == EntryStatus.WITHDRAWN
    # Rows named without `from_` are each checked: one withdrawn entry refuses them all.
    with pytest.raises(IllegalTransition):
        transition(Entry.objects.filter(pk__in=[e.pk for e in entries]), EntryStatus.ACTIVE)


def test_a_new_row_starts_only_in_an_initial_status():
    assert MATCH_STATUSES.first(MatchStatus.SCHEDULED) == MatchStatus.SCHEDULED
    with pytest.raises(IllegalTransition):
        MATCH_STATUSES.first(MatchStatus.DECIDED)


STATUS_FIELDS = {"status"}


def _status_writes(path: Path) -> list[str]:
    """`x.status = ...` and `.update(status=...)` / `.create(status=X.Y)` outside a table."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in STATUS_FIELDS:
                    found.append(f"{path}:{node.lineno}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"update", "create", "get_or_create", "update_or_create"}
        ):
            for keyword in node.keywords:
                if keyword.arg in STATUS_FIELDS and not isinstance(keyword.value, ast.Call):
                    found.append(f"{path}:{node.lineno}")
    return found


def test_statuses_change_only_through_the_transition_function():
    """No module of the app writes a status by hand: a move is `transition()`, a new row's
    status is `TABLE.first(...)` (the import restores rows through the services)."""
    writes = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        if "migrations" in path.parts or path.parent.name == "models":
            continue
        writes += _status_writes(path)
    assert writes == []
