"""States as transitions in reports (issue 27): a reported game's result (`RESULT_STATES`) and
each version's status (`REPORT_STATUSES`) move only along their tables, through
`players.audit.transitions.transition`, which writes the move's audit entry with it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.models import (
    REPORT_STATUSES,
    RESULT_STATES,
    GameReport,
    ReportedGame,
    ReportStatus,
    ResultState,
)
from players.audit.registry import audit_type
from players.audit.transitions import IllegalTransition, status_table, transition
from players.models import AuditEntry
from tests.conftest import client_for

ROOT = Path(__file__).resolve().parents[2]


def _sheet(match, ingrid, ingrid_score: int, tomas_score: int) -> dict:
    if match.entry_a.player_id == ingrid.pk:
        return {"match": match.pk, "score_a": ingrid_score, "score_b": tomas_score}
    return {"match": match.pk, "score_a": tomas_score, "score_b": ingrid_score}


def ruled_by_controller(match, ingrid, tomas, controller) -> ReportedGame:
    """Two contradicting score sheets, then the controller's ruling: version 1 stands."""
    url = "/api/games/score-sheets/"
    client_for(ingrid.user).post(url, _sheet(match, ingrid, 30, 10), format="json")
    client_for(tomas.user).post(url, _sheet(match, ingrid, 10, 30), format="json")
    reported = ReportedGame.objects.get()
    assert reported.state == ResultState.DISPUTED
    ruled = client_for(controller).post(
        f"/api/reports/{reported.pk}/rule/", {"version": 1, "reason": "Signed."}, format="json"
    )
    assert ruled.status_code == 201, ruled.data
    return reported


def test_each_report_status_has_its_table():
    assert status_table(ReportedGame, "state") is RESULT_STATES
    assert status_table(GameReport) is REPORT_STATUSES
    for table in (RESULT_STATES, REPORT_STATUSES):
        for status in table.choices.values:
            assert table.allows(status, status)
    # An answered version is final: only one waiting for the other side (or a confirmation
    # that differs from it) moves.
    assert not REPORT_STATUSES.allows(ReportStatus.CONFIRMED, ReportStatus.OPEN)
    assert not REPORT_STATUSES.allows(ReportStatus.RULED, ReportStatus.SUPERSEDED)
    # A result that stands goes back to waiting only by an organiser's reopening (disputed).
    assert not RESULT_STATES.allows(ResultState.STANDING, ResultState.REPORTED)
    with pytest.raises(IllegalTransition):
        REPORT_STATUSES.first(ReportStatus.SUPERSEDED)


@pytest.mark.django_db
def test_a_ruling_and_its_reopening_move_the_state_with_their_audit_entries(
    ingrid, tomas, match, controller, organiser
):
    reported = ruled_by_controller(match, ingrid, tomas, controller)
    reported.refresh_from_db()
    assert reported.state == ResultState.STANDING
    ruling = AuditEntry.objects.get(action="report_rule")
    # The entry names the game the ruling made stand (written once the game exists).
    assert ruling.details == {
        "reported_game_id": reported.pk,
        "version": 1,
        "game_id": reported.game_id,
    }
    assert reported.game_id is not None
    assert audit_type("report_rule").describe(ruling.details, None) == (
        "The result of version 1 stands."
    )
    answer = client_for(organiser).post(
        f"/api/reports/{reported.pk}/reopen/", {"reason": "Look again."}, format="json"
    )
    assert answer.status_code == 200, answer.data
    reported.refresh_from_db()
    assert reported.state == ResultState.DISPUTED
    assert AuditEntry.objects.filter(action="report_reopen").count() == 1
    # A move the table does not allow writes nothing, not even an audit entry.
    entries = AuditEntry.objects.count()
    with pytest.raises(IllegalTransition) as refused:
        transition(
            reported,
            ResultState.REPORTED,
            field="state",
            audit={"actor": organiser, "action": "report_reopen"},
        )
    assert refused.value.message_dict == {
        "state": [
            "This game's result cannot go from “Disputed: waiting for a ruling” to "
            "“Waiting for confirmation”."
        ]
    }
    reported.refresh_from_db()
    assert reported.state == ResultState.DISPUTED
    assert AuditEntry.objects.count() == entries


STATUS_FIELDS = {"state", "status"}
REPORT_MODULES = ("games/reports",)


def _status_writes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in STATUS_FIELDS
                    and not isinstance(node.value, ast.Call)
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"update", "create", "get_or_create", "update_or_create"}
        ):
            for keyword in node.keywords:
                # A record's adjudication status (RecordStatus) is not a report's.
                if keyword.arg in STATUS_FIELDS and ast.unparse(keyword.value).startswith(
                    ("ReportStatus", "ResultState")
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_report_statuses_change_only_through_the_transition_function():
    """No module of the reports room writes a state or status by hand: a move is
    `transition()`, a new row's status is `TABLE.first(...)`."""
    writes = []
    for room in REPORT_MODULES:
        for path in sorted((ROOT / room).rglob("*.py")):
            writes += _status_writes(path)
    assert writes == []
