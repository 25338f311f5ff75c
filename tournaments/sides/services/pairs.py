"""Doubles: registering a pair, the partner's confirmation, and the organiser's direct entry.

A player names a partner: the pair's entry waits (`pending`) until the partner confirms it, and
is not drawn or seeded while it waits. Organisers enter a pair directly (active at once). Both
players must be eligible for the event, and a player is in at most one pair of an event
(checked under the event's row lock, as singles registration checks a player once).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.models import Player
from players.roles import player_of
from players.types import User
from tournaments import selectors
from tournaments.models import (
    ENTRY_STATUSES,
    SIDES,
    AuditAction,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    Pair,
)
from tournaments.permissions import can_manage
from tournaments.services.audit import audit, audit_entry
from tournaments.services.registration import age_remember, registration_check


def _pair_for(event: Event, first: Player, second: Player) -> Pair:
    """The championship's pair of these two players (either order), made when first needed."""
    existing = Pair.objects.filter(
        Q(player_a=first, player_b=second) | Q(player_a=second, player_b=first),
        championship_id=event.championship_id,
    ).first()
    if existing is not None:
        return existing
    return Pair.objects.create(
        championship_id=event.championship_id,
        player_a=first,
        player_b=second,
        name=f"{first.display_name} & {second.display_name}"[:90],
    )


def _pair_checks(
    event: Event, player: Player, partner: Player, *, actor: User, partner_confirms: bool
) -> None:
    if event.entry_kind != EntryKind.PAIR:
        raise ValidationError({"partner": _("This event is not a doubles event.")})
    if player.pk == partner.pk:
        raise ValidationError({"partner": _("A pair is two different players.")})
    errors: dict[str, list[str]] = {}
    for field, who in (("player", player), ("partner", partner)):
        taken = (
            Entry.objects.filter(event=event, pair__isnull=False)
            .filter(Q(pair__player_a=who) | Q(pair__player_b=who))
            .exclude(status=EntryStatus.WITHDRAWN)
            .select_related("pair")
            .first()
        )
        if taken is not None:
            errors.setdefault(field, []).append(
                _("%(player)s is already in a pair of this event (%(pair)s).")
                % {"player": who.display_name, "pair": taken.pair.name}
            )
        # A partner who is to confirm the pair has their age checked then, by themselves:
        # asking them to play tells the asker nothing of their date of birth.
        problems = selectors.eligibility_problems(
            event, who, actor=actor, age_checked_later=partner_confirms and who == partner
        )
        if problems:
            errors.setdefault(field, []).extend(problems)
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def pair_register(
    *, actor: User, event: Event, partner: Player, player: Player | None = None
) -> Entry:
    """A player registers a pair with a partner (who must confirm it); an organiser enters any
    two players as a pair, active at once."""
    manager = can_manage(actor, event.championship)
    own = player_of(actor)
    if player is None:
        player = own
    if player is None:
        raise ValidationError({"player": _("Your account has no player profile: name the player.")})
    if not manager and (own is None or own.pk != player.pk):
        raise PermissionDenied(_("You may register only a pair you play in."))
    event = Event.objects.select_for_update().select_related("championship").get(pk=event.pk)
    registration_check(event)
    # The partner confirms a player's request; an organiser's entry, or a player entering
    # themselves with a partner they manage as organiser, needs no confirmation.
    waits = not manager
    _pair_checks(event, player, partner, actor=actor, partner_confirms=waits)
    pair = _pair_for(event, player, partner)
    earlier = Entry.objects.filter(event=event, pair=pair).first()
    if earlier is not None:  # withdrawn (the checks above refuse a pair still in play)
        raise ValidationError(
            {
                "partner": _("%(pair)s was entered in this event and withdrawn; it stays so.")
                % {"pair": pair.name}
            }
        )
    entry = Entry.objects.create(
        event=event,
        pair=pair,
        status=ENTRY_STATUSES.first(EntryStatus.PENDING if waits else EntryStatus.ACTIVE),
        registered_by=actor,
    )
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.PAIR_REQUEST if waits else AuditAction.ENTRY_REGISTER,
        target=pair.name,
        details={"players": [player.pk, partner.pk]},
    )
    if own is not None and own.pk == player.pk:
        age_remember(event, player)
    return entry


def _pending_entry(entry: Entry) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("event__championship", *SIDES, "pair__player_a", "pair__player_b")
        .get(pk=entry.pk)
    )
    if entry.pair_id is None or entry.status != EntryStatus.PENDING:
        raise ValidationError({"entry": _("This entry is not a pair awaiting confirmation.")})
    return entry


def _partner_of(entry: Entry) -> int:
    """Who must confirm: the pair's other player than the one who asked."""
    registrant = player_of(entry.registered_by) if entry.registered_by_id else None
    if registrant is not None and registrant.pk == entry.pair.player_b_id:
        return entry.pair.player_a_id
    return entry.pair.player_b_id


@transaction.atomic
def pair_confirm(*, actor: User, entry: Entry) -> Entry:
    """The partner confirms the pair (or an organiser does it for them): it is entered."""
    entry = _pending_entry(entry)
    own = player_of(actor)
    if not (
        can_manage(actor, entry.event.championship)
        or (own is not None and own.pk == _partner_of(entry))
    ):
        raise PermissionDenied(_("Only the partner named in the request may confirm it."))
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    registration_check(event)
    problems = []
    for who in (entry.pair.player_a, entry.pair.player_b):
        problems += selectors.eligibility_problems(event, who, actor=actor)
    if problems:
        raise ValidationError({"entry": problems})
    if own is not None and own.pk in entry.pair.player_ids:
        age_remember(event, own)
    transition(
        entry,
        EntryStatus.ACTIVE,
        audit=audit_entry(
            actor=actor,
            championship=entry.event.championship,
            event=entry.event,
            action=AuditAction.ENTRY_REGISTER,
            target=entry.pair.name,
            details={"confirmed": True},
        ),
    )
    return entry


@transaction.atomic
def pair_decline(*, actor: User, entry: Entry, reason: str = "") -> None:
    """Either player of a waiting pair (or an organiser) calls it off: the request is removed,
    so both may register with someone else."""
    entry = _pending_entry(entry)
    own = player_of(actor)
    if not (
        can_manage(actor, entry.event.championship)
        or (own is not None and own.pk in entry.pair.player_ids)
    ):
        raise PermissionDenied(_("Only the two players of this pair may call it off."))
    name = entry.pair.name
    event = entry.event
    entry.delete()
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.PAIR_DECLINE,
        target=name,
        reason=reason,
    )


def pair_requests_for(player: Player, event: Event) -> list[Entry]:
    """The event's pairs waiting for this player's answer (they were named as partner)."""
    pending = (
        Entry.objects.filter(event=event, status=EntryStatus.PENDING, pair__isnull=False)
        .filter(Q(pair__player_a=player) | Q(pair__player_b=player))
        .select_related("pair", "registered_by")
    )
    return [e for e in pending if _partner_of(e) == player.pk]


register_audit_type(AuditAction.PAIR_REQUEST, details={"players": list})
register_audit_type(AuditAction.PAIR_DECLINE)
