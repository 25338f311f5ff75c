"""Moving a qualifying stage's qualifiers into the event it feeds."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.types import User
from tournaments import formats, selectors
from tournaments.format_words import format_error_text
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    AuditAction,
    Entry,
    EntrySource,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
)
from tournaments.services.access import require_manager
from tournaments.services.audit import audit_entry


@transaction.atomic
def qualifiers_advance(*, actor: User, event: Event) -> list[Entry]:
    """Move the qualifiers of `event.feeds_from` into `event`, seeded by qualifying rank."""
    require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    source = event.feeds_from
    if source is None:
        raise ValidationError({"event": _("This event is not fed by another event.")})
    if event.status in (EventStatus.DRAWN, EventStatus.FINISHED):
        raise ValidationError(
            {"event": _("The draw has been made; qualifiers can no longer move.")}
        )
    if source.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
        open_count = source.matches.exclude(status__in=FINAL_MATCH_STATUSES).count()
        raise ValidationError(
            {
                # English says "matches" even for one, as it always has; other languages
                # choose their plural form.
                "event": ngettext(
                    "%(event)s still has %(count)s open matches.",
                    "%(event)s still has %(count)s open matches.",
                    open_count,
                )
                % {"event": source.name, "count": open_count}
            }
        )
    if event.entries.filter(source=EntrySource.QUALIFIER).exists():
        raise ValidationError({"event": _("The qualifiers have already been moved.")})
    try:
        if source.format in (EventFormat.GROUPS, EventFormat.ROUND_ROBIN):
            tables = selectors.group_tables(source)
            chosen = [
                q.key
                for q in formats.group_qualifiers(list(tables.values()), event.qualifiers_count)
            ]
        else:
            chosen = [e.pk for e, _ in selectors.swiss_standings(source)][: event.qualifiers_count]
    except formats.FormatError as exc:
        raise ValidationError({"event": format_error_text(exc)}) from None
    source_entries = {e.pk: e for e in source.entries.select_related(*SIDES)}
    created = []
    for rank, entry_id in enumerate(chosen, start=1):
        qualifier = source_entries[entry_id]
        side = {
            "player": qualifier.player_id,
            "pair": qualifier.pair_id,
            "team": qualifier.team_id,
        }
        side = {f"{name}_id": value for name, value in side.items() if value is not None}
        if Entry.objects.filter(event=event, **side).exists():
            continue  # a direct entrant who also played the qualifier
        created.append(
            Entry(
                event=event,
                **side,
                source=EntrySource.QUALIFIER,
                qualifier_rank=rank,
                registered_by=actor,
            )
        )
    Entry.objects.bulk_create(created)
    transition(source.entries.filter(pk__in=chosen), EntryStatus.QUALIFIED)
    transition(
        source.entries.exclude(pk__in=chosen),
        EntryStatus.ELIMINATED,
        from_=(EntryStatus.ACTIVE,),
    )
    transition(
        Event.objects.filter(pk=source.pk),
        EventStatus.FINISHED,
        audit=audit_entry(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.QUALIFIERS_ADVANCE,
            target=event.name,
            details={"from": source.pk, "qualifiers": chosen},
        ),
    )
    return created


# --- Audit types: the actions this module writes, and their words ---------------------------


def _qualifiers_words(details: dict, names: Any) -> str:
    source = names.event(details.get("from"))
    count = len(details.get("qualifiers") or [])
    if source is None:
        return ngettext(
            "%(count)s qualifier from the earlier stage",
            "%(count)s qualifiers from the earlier stage",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)s qualifier from %(source)s", "%(count)s qualifiers from %(source)s", count
    ) % {"count": count, "source": source}


register_audit_type(
    AuditAction.QUALIFIERS_ADVANCE,
    details={"from": int, "qualifiers": list},
    describe=_qualifiers_words,
)
