"""Disputes of a typed table-open result: a player disputes, a controller rules, an organiser
reopens a ruling.

**Decision:** a table open's result is typed by a controller from the sheet both players signed,
so it stands at once (tournaments.opens.services.score_sheets). A player of the table who finds the
typed result differs from the sheet disputes it with a reason; the result keeps counting (the
standings and the next round's pairing do not wait) until a controller of the championship
rules: the typed result stands, or the corrected one replaces it. The ruling is final and needs a
reason; an organiser may reopen it for a new ruling. While a result is disputed or ruled, the
round's results page does not change it: only a ruling does. Every step is a line of the audit
trail with the result before and after, which the table's page reads back as its history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.score_sheet import ScoreSheetError, score_sheet_parse
from players.audit.registry import register_audit_type
from players.models import AuditEntry
from players.notices.services import notice_send
from players.roles import player_of
from players.types import User
from tournaments.models import AuditAction, Event, Match, TableResult, TableResultState
from tournaments.opens.services.score_sheets import result_write, sheet_of, sides_named
from tournaments.permissions import PARTY_REFUSAL, judges_match
from tournaments.services.access import require_judge, require_manager
from tournaments.services.audit import audit

# What its notices are about: a table of a table open, by its match id (the page is registered
# in tournaments.apps).
NOTICE_ABOUT = "open_table"

_HISTORY_ACTIONS = (
    AuditAction.TABLE_RESULT_CORRECT,
    AuditAction.TABLE_RESULT_DISPUTE,
    AuditAction.TABLE_RESULT_RULE,
    AuditAction.TABLE_RESULT_REOPEN,
)


def _locked(match_id: int) -> tuple[Event, Match, TableResult]:
    """The open's row locked first (the lock every writer of its results takes), then the
    table's result."""
    match = Match.objects.select_related("event").get(pk=match_id)
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=match.event_id)
    )
    match = Match.objects.select_related("entry_a__player", "entry_b__player", "round").get(
        pk=match_id
    )
    result = TableResult.objects.select_for_update().filter(match=match).first()
    if not event.table_open or result is None:
        raise ValidationError({"table": _("This table has no typed result to dispute or rule.")})
    return event, match, result


def _reason(reason: str, message: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": message})
    return reason[:2000]


def players_of_table(match: Match) -> list[User]:
    """The accounts of the table's two players (a player entered without one has none)."""
    return [
        entry.player.user
        for entry in (match.entry_a, match.entry_b)
        if entry is not None and entry.player is not None and entry.player.user_id is not None
    ]


def may_dispute(user: User, match: Match) -> bool:
    return bool(user and user.is_authenticated) and any(
        u.pk == user.pk for u in players_of_table(match)
    )


def _where(match: Match) -> str:
    """The table as the audit trail names it (in English, like every stored target)."""
    return f"{match.round.english_name}, table {match.bracket_index + 1}"


def _place(match: Match, event: Event) -> dict[str, Any]:
    """The table's words for a notice: its round (in the active language), number, event."""
    return {"round": str(match.round), "table": match.bracket_index + 1, "event": event.name}


def _audit(actor: User, event: Event, match: Match, action: str, **details: Any) -> None:
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=action,
        target=_where(match),
        reason=details.pop("reason", ""),
        details={"match": match.pk, "table": match.bracket_index + 1, **details},
    )


def _tell(users: list[User], text: Callable[[], str], match: Match) -> None:
    """Leave each user a notice (and its email) in their own language: `text` words it in the
    active one. The notice keeps the text as sent."""
    for user in {u.pk: u for u in users}.values():
        player = player_of(user)
        with translation.override((player and player.language) or settings.LANGUAGE_CODE):
            notice_send(user=user, text=text(), about=NOTICE_ABOUT, about_id=match.pk)


def _rulers(event: Event) -> list[User]:
    championship = event.championship
    return [*championship.controllers.all(), *championship.organisers.all()]


@transaction.atomic
def table_result_dispute(*, actor: User, match_id: int, reason: str) -> TableResult:
    """A player of the table says the typed result is not what the sheet says."""
    event, match, result = _locked(match_id)
    if not may_dispute(actor, match):
        raise PermissionDenied(_("Only the two players of this table may dispute its result."))
    reason = _reason(reason, _("Say what the sheet says and what was typed."))
    if result.state != TableResultState.ENTERED:
        raise ValidationError(
            {
                "table": _("This result is already disputed.")
                if result.state == TableResultState.DISPUTED
                else _("This result is already ruled.")
            }
        )
    result.state = TableResultState.DISPUTED
    result.dispute_reason = reason
    result.disputed_by = actor
    result.disputed_at = timezone.now()
    result.save(update_fields=["state", "dispute_reason", "disputed_by", "disputed_at"])
    _audit(
        actor,
        event,
        match,
        AuditAction.TABLE_RESULT_DISPUTE,
        reason=reason,
        result=sheet_of(result).describe(*sides_named(match)),
    )
    _tell(
        _rulers(event),
        lambda: _("The result of %(round)s, table %(table)s in %(event)s is disputed.")
        % _place(match, event),
        match,
    )
    return result


@transaction.atomic
def table_result_rule(
    *, actor: User, match_id: int, reason: str, sheet: Mapping[str, Any] | None = None
) -> TableResult:
    """A controller's final word on a disputed result: it stands as typed (``sheet`` None) or
    the corrected sheet replaces it. Raises ValidationError with field messages."""
    event, match, result = _locked(match_id)
    require_judge(actor, match)
    errors: dict[str, Any] = {}
    if not (reason or "").strip():
        errors["reason"] = _("A ruling needs a reason.")
    if result.state != TableResultState.DISPUTED:
        errors["table"] = (
            _("Only a disputed result is ruled on.")
            if result.state == TableResultState.ENTERED
            else _("This result is ruled; an organiser may reopen it first.")
        )
    corrected = None
    if sheet is not None:
        try:
            corrected = score_sheet_parse(sheet)
        except ScoreSheetError as exc:
            errors.update(exc.errors)
    if errors:
        raise ValidationError(errors)
    names = sides_named(match)
    before = sheet_of(result)
    if corrected is not None and corrected != before:
        result = result_write(event, match, result, corrected, actor=actor, now=timezone.now())
    result.state = TableResultState.RULED
    result.save(update_fields=["state"])
    _audit(
        actor,
        event,
        match,
        AuditAction.TABLE_RESULT_RULE,
        reason=reason.strip()[:2000],
        before=before.describe(*names),
        after=sheet_of(result).describe(*names),
    )
    _tell(
        players_of_table(match),
        lambda: _(
            "The disputed result of %(round)s, table %(table)s in %(event)s is ruled: %(result)s."
        )
        % {**_place(match, event), "result": sheet_of(result).describe(*names)},
        match,
    )
    return result


@transaction.atomic
def table_result_reopen(*, actor: User, match_id: int, reason: str) -> TableResult:
    """An organiser reopens a ruling: the result waits for a new one (and keeps counting)."""
    event, match, result = _locked(match_id)
    require_manager(actor, event.championship)
    if not judges_match(actor, match):
        raise PermissionDenied(str(PARTY_REFUSAL))
    reason = _reason(reason, _("Say why the ruling is reopened."))
    if result.state != TableResultState.RULED:
        raise ValidationError({"table": _("Only a ruled result can be reopened.")})
    result.state = TableResultState.DISPUTED
    result.save(update_fields=["state"])
    _audit(actor, event, match, AuditAction.TABLE_RESULT_REOPEN, reason=reason)
    _tell(
        _rulers(event),
        lambda: _("A ruling on %(round)s, table %(table)s in %(event)s was reopened.")
        % _place(match, event),
        match,
    )
    return result


def table_result_history(match: Match) -> list[AuditEntry]:
    """Corrections, disputes, rulings and reopenings of the table's result, oldest first."""
    return list(
        AuditEntry.objects.filter(
            event_id=match.event_id, action__in=_HISTORY_ACTIONS, details__match=match.pk
        )
        .select_related("actor")
        .order_by("created", "pk")
    )


# --- Audit types: the actions this module writes (each names its match and table) ----------

register_audit_type(
    AuditAction.TABLE_RESULT_DISPUTE, details={"match": int, "table": int, "result": str}
)
register_audit_type(
    AuditAction.TABLE_RESULT_RULE,
    details={"match": int, "table": int, "before": str, "after": str},
)
register_audit_type(AuditAction.TABLE_RESULT_REOPEN, details={"match": int, "table": int})
