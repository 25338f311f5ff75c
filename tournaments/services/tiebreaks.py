"""Choosing an event's tie-breaks: free before the start, confirmed and audited after it."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from players.audit.registry import register_audit_type
from players.types import User
from tournaments import formats
from tournaments.format_words import format_error_text
from tournaments.formats import tiebreaks
from tournaments.models import AuditAction, Event
from tournaments.services.access import require_manager
from tournaments.services.audit import audit
from tournaments.standings import criteria_english, event_criteria, event_started


@transaction.atomic
def event_tiebreaks_set(
    *, actor: User, event: Event, criteria: list[str], confirm: bool = False, reason: str = ""
) -> Event:
    """Set the ordered tie-break list. Players read it before the start and play to it, so a
    change once the event has started needs the organiser's explicit `confirm`."""
    require_manager(actor, event.championship)
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=event.pk)
    )
    if not isinstance(criteria, list | tuple) or not all(isinstance(k, str) for k in criteria):
        raise ValidationError({"tiebreaks": _("Give the tie-breaks as a list of names.")})
    try:
        chosen = list(tiebreaks.criteria_check(criteria))
    except formats.FormatError as exc:
        raise ValidationError({"tiebreaks": format_error_text(exc)}) from None
    before = list(event_criteria(event))
    if chosen == before:
        return event
    started = event_started(event)
    if started and not confirm:
        raise ValidationError(
            {
                "confirm": _(
                    "The event has started: its players were told the tie-breaks. "
                    "Confirm to change them anyway (the change is audited)."
                )
            }
        )
    event.tiebreaks = chosen
    event.save(update_fields=["tiebreaks"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.TIEBREAKS_SET,
        target=event.name,
        reason=reason,
        details={
            "before": criteria_english(before),
            "after": criteria_english(chosen),
            "after_start": started,
        },
    )
    return event


register_audit_type(
    AuditAction.TIEBREAKS_SET, details={"before": list, "after": list, "after_start": bool}
)
