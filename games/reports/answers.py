"""Answers to a report: confirm, dispute; rulings, reopening, the overdue sweep."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from games.models import (
    AuditAction,
    GameReport,
    ReportedGame,
    ReportKind,
    ReportRole,
    ReportStatus,
    ResultState,
)
from games.reports import notes
from games.reports.access import (
    authority_of,
    confirm_refusal,
    dispute_refusal,
    may_confirm,
    may_reopen,
    may_rule,
    opponents_without_account,
    reopen_refusal_words,
    rule_refusal,
)
from games.reports.filing import (
    AuditOf,
    answer_version,
    dispute_version,
    let_stand,
    new_version,
)
from games.reports.notify import tell_rulers, tell_sides_outcome
from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.roles import is_admin, player_of
from players.types import User

# --- Answers, rulings, reopening ------------------------------------------------------------


def _locked_version(report_id: int) -> GameReport:
    version = GameReport.objects.select_related("reported_game").get(pk=report_id)
    reported = ReportedGame.objects.select_for_update().get(pk=version.reported_game_id)
    version = GameReport.objects.get(pk=report_id)
    version.reported_game = reported
    return version


@transaction.atomic
def report_confirm(*, actor: User, report_id: int) -> GameReport:
    """The other side agrees: the version stands (GameReport.DoesNotExist if unknown)."""
    version = _locked_version(report_id)
    if not may_confirm(actor, version):
        raise PermissionDenied(confirm_refusal())
    if version.status != ReportStatus.OPEN:
        raise ValidationError(
            {
                "report": _("This report is no longer waiting: %(status)s.")
                % {"status": version.get_status_display()}
            }
        )
    own = player_of(actor)
    for_accountless = own is None or own.pk not in version.reported_game.seat_players
    answer_version(
        version,
        actor,
        ReportStatus.CONFIRMED,
        "",
        audit=(
            _audit_of(actor, AuditAction.REPORT_CONFIRM_FOR, "", version.number)
            if for_accountless
            else None
        ),
    )
    return version


@transaction.atomic
def report_dispute(*, actor: User, report_id: int, reason: str) -> GameReport:
    """The other side disagrees, saying why: the game goes to its controllers (staff)."""
    version = _locked_version(report_id)
    if not may_confirm(actor, version):
        raise PermissionDenied(dispute_refusal())
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say what is wrong with this report.")})
    if version.status != ReportStatus.OPEN:
        raise ValidationError({"report": _("This report is no longer waiting for an answer.")})
    dispute_version(version, None, actor, reason[:2000])
    return version


@transaction.atomic
def report_rule(
    *, actor: User, reported_game_id: int, version_number: int | None, reason: str
) -> GameReport:
    """A controller's final word: version N's result stands, or (None) there was no game."""
    reported = _locked_reported(reported_game_id)
    if not may_rule(actor, reported):
        raise PermissionDenied(rule_refusal(actor, reported))
    reason = (reason or "").strip()
    errors: dict[str, str] = {}
    if not reason:
        errors["reason"] = _("A ruling needs a reason.")
    if reported.state not in (ResultState.REPORTED, ResultState.DISPUTED):
        errors["report"] = _("This result is ruled; an organiser may reopen it first.")
    chosen = None
    if version_number is not None:
        chosen = (
            reported.versions.filter(number=version_number).exclude(kind=ReportKind.RULING).first()
        )
        if chosen is None:
            errors["version"] = _("This game has no report %(n)s.") % {"n": version_number}
    elif reported.game_id is not None:
        errors["version"] = _(
            "This game's result has stood and counted: choose the report that stands."
        )
    if errors:
        raise ValidationError(errors)
    ruling = new_version(
        reported,
        kind=ReportKind.RULING,
        role=ReportRole.STAFF if is_admin(actor) else ReportRole.CONTROLLER,
        author=actor,
        based_on=chosen,
        scores=list(chosen.scores) if chosen else [],
        winner_seat=chosen.winner_seat if chosen else None,
        end_reason=chosen.end_reason if chosen else "",
        minutes=chosen.minutes if chosen else None,
        status=ReportStatus.RULED,
        reason=reason[:2000],
    )
    audit_of = _audit_of(actor, AuditAction.REPORT_RULE, reason, version_number)
    if chosen is not None:
        let_stand(reported, ruling, answer=None, audit=audit_of)
    else:
        transition(
            GameReport.objects.filter(reported_game=reported),
            ReportStatus.SUPERSEDED,
            from_=[ReportStatus.OPEN],
        )
        transition(
            reported,
            ResultState.VOID,
            field="state",
            fields={"updated": timezone.now()},
            audit=audit_of(reported),
        )
    transaction.on_commit(lambda: tell_sides_outcome(ruling.pk))
    return ruling


def _locked_reported(reported_game_id: int) -> ReportedGame:
    """The reported game's row, locked: every ruling and reopening of one game queues here."""
    return ReportedGame.objects.select_for_update().get(pk=reported_game_id)


def is_ruled(reported: ReportedGame) -> bool:
    """Whether a ruling is the game's last word: it stands (or voided the game) and nobody has
    reopened it since. A reopened ruling still stands (it keeps counting) but the game is
    disputed again, waiting for the next ruling."""
    if reported.state == ResultState.VOID:
        return True
    return (
        reported.state == ResultState.STANDING
        and reported.versions.filter(standing=True, kind=ReportKind.RULING).exists()
    )


def reopen_refusal(reported: ReportedGame) -> str | None:
    """Why this result cannot be reopened now (None: it can). Read under the row lock, so of
    two organisers reopening at once the second reads the first one's reopening."""
    if is_ruled(reported):
        return None
    if (
        reported.state == ResultState.DISPUTED
        and reported.versions.filter(standing=True, kind=ReportKind.RULING).exists()
    ):
        return _("This ruling is already reopened: it waits for a new ruling.")
    return _("Only a ruled result can be reopened.")


@transaction.atomic
def report_reopen(*, actor: User, reported_game_id: int, reason: str) -> ReportedGame:
    """An organiser reopens a ruled result: it waits for a new ruling.

    Once per ruling: the state moves from ruled to disputed under the row lock, and a result
    that is not ruled (reopened already, agreed by the sides, still waiting) is refused. A
    result that stood keeps standing (and counting) until the new ruling replaces it, so a
    match never loses a game it counted while the controllers look again.
    """
    reported = _locked_reported(reported_game_id)
    if not may_reopen(actor, reported):
        raise PermissionDenied(reopen_refusal_words(actor, reported))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the ruling is reopened.")})
    refusal = reopen_refusal(reported)
    if refusal is not None:
        raise ValidationError({"report": refusal})
    transition(
        reported,
        ResultState.DISPUTED,
        field="state",
        fields={"updated": timezone.now()},
        audit=_audit_of(actor, AuditAction.REPORT_REOPEN, reason, None)(reported),
    )
    transaction.on_commit(lambda: tell_rulers(reported.pk, "reopened"))
    return reported


def _audit_of(actor: User, action: str, reason: str, number: Any) -> AuditOf:
    """The audit entry of a move of a reported game, made when the move is written (it names
    the game the move made)."""

    def entry(reported: ReportedGame) -> dict[str, Any]:
        authority, value = authority_of(reported)
        ids = authority.audit_ids(value) if authority else {}
        return {
            "actor": actor,
            "action": action,
            # Stored: in English, whoever acted (docs/translations.md).
            "target": gettext_noop("Reported game %(id)s") % {"id": reported.pk},
            "reason": reason,
            "details": {
                "reported_game_id": reported.pk,
                "version": number,
                "game_id": reported.game_id,
            },
            "championship_id": ids.get("championship_id"),
            "event_id": ids.get("event_id"),
        }

    return entry


def reports_confirm_overdue(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """The beat task: open versions older than GAME_REPORT_CONFIRM_HOURS stand, and say so.

    Not those against a player without an account: an organiser or staff must confirm them.
    Each in its own transaction; a row another worker holds is left for the next run.
    """
    now = now or timezone.now()
    before = now - dt.timedelta(hours=settings.GAME_REPORT_CONFIRM_HOURS)
    ids = list(
        GameReport.objects.filter(status=ReportStatus.OPEN, created__lte=before)
        .order_by("created", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    confirmed = []
    for report_id in ids:
        with transaction.atomic():
            version = _locked_version(report_id)
            if version.status != ReportStatus.OPEN:
                continue
            if opponents_without_account(version.reported_game, version):
                continue
            answer_version(
                version,
                None,
                ReportStatus.AUTO_CONFIRMED,
                notes.auto_confirmed(settings.GAME_REPORT_CONFIRM_HOURS),
            )
            confirmed.append(report_id)
    return confirmed


# --- The report actions as registered types (issue 27) --------------------------------------


def _ruling_words(details: dict, _names: Any = None) -> str:
    """Which version's result the ruling lets stand, or that the game is void."""
    if details.get("version") is None:
        return str(ResultState.VOID.label)
    return _("The result of version %(n)s stands.") % {"n": details["version"]}


def _confirmed_words(details: dict, _names: Any = None) -> str:
    if details.get("version") is None:
        return ""
    return _("Version %(n)s confirmed.") % {"n": details["version"]}


def _reopened_words(_details: dict, _names: Any = None) -> str:
    # The label says it ("Ruled game result reopened"), the reason says why.
    return str(gettext_lazy("Disputed: waiting for a ruling"))


REPORT_DETAILS = {"reported_game_id": int, "version": int, "game_id": int}
register_audit_type(AuditAction.REPORT_RULE, details=REPORT_DETAILS, describe=_ruling_words)
register_audit_type(AuditAction.REPORT_REOPEN, details=REPORT_DETAILS, describe=_reopened_words)
register_audit_type(
    AuditAction.REPORT_CONFIRM_FOR, details=REPORT_DETAILS, describe=_confirmed_words
)
