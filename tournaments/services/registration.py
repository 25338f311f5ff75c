"""Entries: registering, withdrawing, and seeding them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.models import Player
from players.roles import player_of
from players.types import User
from tournaments import selectors
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    SIDES,
    AgeConfirmation,
    AuditAction,
    Eligibility,
    Entry,
    EntryKind,
    EntrySource,
    EntryStatus,
    Event,
    EventStatus,
    Match,
    MatchStatus,
)
from tournaments.permissions import can_manage, leads_entry
from tournaments.services.access import require_manager
from tournaments.services.audit import audit, audit_entry
from tournaments.services.progression import match_finish


@transaction.atomic
def entry_register(*, actor: User, event: Event, player: Player) -> Entry:
    """A player registers themselves; an organiser registers anyone."""
    own = player_of(actor)
    if not (can_manage(actor, event.championship) or (own is not None and own.pk == player.pk)):
        raise PermissionDenied(_("You may register only yourself."))
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration_check(event)
    if event.entry_kind != EntryKind.SINGLE:
        raise ValidationError(
            {
                "player": _("This is a doubles (pairs) event: register a pair.")
                if event.entry_kind == EntryKind.PAIR
                else _("This is a teams event: enter a team.")
            }
        )
    if Entry.objects.filter(event=event, player=player).exists():
        raise ValidationError(
            {"player": _("%(player)s is already entered.") % {"player": player.display_name}}
        )
    problems = selectors.eligibility_problems(event, player, actor=actor)
    if problems:
        raise ValidationError({"player": problems})
    entry = Entry.objects.create(event=event, player=player, registered_by=actor)
    if own is not None and own.pk == player.pk:
        age_remember(event, player)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.ENTRY_REGISTER,
        target=player.display_name,
    )
    return entry


def age_remember(event: Event, player: Player) -> None:
    """The player entered a junior event in their own name, their age checked: that is their
    confirmation of its rule, for whoever enters them in another event with the same rule."""
    if event.eligibility == Eligibility.JUNIOR:
        AgeConfirmation.objects.get_or_create(
            player=player, age_limit=event.junior_age_limit, cutoff_date=event.cutoff_date
        )


@transaction.atomic
def age_confirm(*, actor: User, event: Event) -> AgeConfirmation:
    """A player confirms, in their own name, that they meet a junior event's age limit, so that
    an organiser, a captain or a partner may enter them (they are told nothing about the date
    of birth). Checked against the date of birth now; the refusal is the player's own."""
    own = player_of(actor)
    if own is None:
        raise ValidationError({"player": _("Your account has no player profile.")})
    if event.eligibility != Eligibility.JUNIOR:
        raise ValidationError({"event": _("This is not a junior event: it has no age limit.")})
    problems = selectors.eligibility_problems(event, own, actor=actor)
    if problems:
        raise ValidationError({"player": problems})
    confirmation, _created = AgeConfirmation.objects.get_or_create(
        player=own, age_limit=event.junior_age_limit, cutoff_date=event.cutoff_date
    )
    return confirmation


def registration_check(event: Event) -> None:
    """Refuse a registration the event does not take now (the event row is locked)."""
    if event.status != EventStatus.REGISTRATION:
        raise ValidationError({"event": _("Registration for this event is closed.")})
    if event.feeds_from_id and not event.qualifiers_count:
        raise ValidationError({"event": _("This event is filled by qualifiers only.")})


# Why an entry that is not active cannot be withdrawn: its state in a whole sentence each.
_NOT_IN_PLAY = {
    EntryStatus.PENDING: gettext_lazy(
        "This entry is no longer in play (awaiting the partner's confirmation)."
    ),
    EntryStatus.ELIMINATED: gettext_lazy("This entry is no longer in play (eliminated)."),
    EntryStatus.QUALIFIED: gettext_lazy("This entry is no longer in play (qualified onward)."),
    EntryStatus.CHAMPION: gettext_lazy("This entry is no longer in play (champion)."),
}


def no_longer_in_play(entry: Entry) -> str:
    return str(_NOT_IN_PLAY.get(entry.status) or _("This entry is no longer in play."))


def _seed_order_refusal(unknown: list[int], missing: list[int]) -> str:
    params = {"unknown": unknown, "missing": missing}
    if unknown and missing:
        return (
            _("Give every active entry id exactly once; unknown: %(unknown)s; missing: %(missing)s")
            % params
        )
    if unknown:
        return _("Give every active entry id exactly once; unknown: %(unknown)s") % params
    if missing:
        return _("Give every active entry id exactly once; missing: %(missing)s") % params
    return _("Give every active entry id exactly once")


@transaction.atomic
def entry_withdraw(*, actor: User, entry: Entry, reason: str = "") -> Entry:
    """Withdraw an entry. After the draw its open matches go to the opponent by walkover."""
    manager = can_manage(actor, entry.event.championship)
    if not (manager or leads_entry(actor, entry)):
        raise PermissionDenied(_("You may withdraw only your own entry."))
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("event", *SIDES)
        .get(pk=entry.pk)
    )
    if entry.status == EntryStatus.WITHDRAWN:
        raise ValidationError({"entry": _("This entry is already withdrawn.")})
    if entry.event.status == EventStatus.FINISHED:
        raise ValidationError({"entry": _("The event is finished: its results stand.")})
    if entry.status != EntryStatus.ACTIVE:
        raise ValidationError({"entry": no_longer_in_play(entry)})
    if entry.event.status == EventStatus.DRAWN and not manager:
        raise PermissionDenied(_("After the draw only an organiser may withdraw a player."))
    transition(
        entry,
        EntryStatus.WITHDRAWN,
        audit=audit_entry(
            actor=actor,
            championship=entry.event.championship,
            event=entry.event,
            action=AuditAction.ENTRY_WITHDRAW,
            target=entry.name,
            reason=reason,
        ),
    )
    open_matches = (
        Match.objects.select_for_update()
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .exclude(status__in=FINAL_MATCH_STATUSES)
    )
    for match in open_matches:
        other = match.entry_b if match.entry_a_id == entry.pk else match.entry_a
        if other is None and match.feeders.exclude(status__in=FINAL_MATCH_STATUSES).exists():
            # The opponent is not known yet: empty the slot; when the feeding match ends,
            # its winner goes through by walkover (see _feed_next).
            side = "entry_a" if match.entry_a_id == entry.pk else "entry_b"
            setattr(match, side, None)
            match.save(update_fields=[side])
            continue
        match_finish(
            match,
            winner=other,
            status=MatchStatus.WALKOVER if other else MatchStatus.VOID,
            reason="withdrawal",
        )
    return entry


@transaction.atomic
def event_seed(*, actor: User, event: Event, order: Sequence[int] | None = None) -> list[Entry]:
    """Seed the active entries: by the organiser's order of entry ids, or from ratings.

    From ratings: tournament Elo first, then the lobby ranking, then registration order, so
    unrated players go last in the order they entered.
    """
    require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == EventStatus.DRAWN or event.status == EventStatus.FINISHED:
        raise ValidationError({"event": _("The draw has been made; seeds can no longer change.")})
    entries = list(
        event.entries.filter(status=EntryStatus.ACTIVE)
        .select_related(*SIDES)
        .order_by("qualifier_rank", "created", "id")
    )
    if order is not None:
        by_id = {e.pk: e for e in entries}
        order = list(order)
        missing = [e.pk for e in entries if e.pk not in set(order)]
        unknown = [pk for pk in order if pk not in by_id]
        if unknown or missing or len(set(order)) != len(order):
            raise ValidationError({"order": _seed_order_refusal(unknown, missing)})
        ranked = [by_id[pk] for pk in order]
        basis = {e.pk: "organiser" for e in ranked}
        points = {e.pk: None for e in ranked}
    else:
        figures = selectors.entry_seeding_figures(entries)
        position = {e.pk: i for i, e in enumerate(entries)}

        def key(entry: Entry) -> tuple:
            if entry.source == EntrySource.QUALIFIER:
                # Below every direct entrant, in the order the qualifying stage ranked them.
                return (True, entry.qualifier_rank or 0, 0.0, position[entry.pk])
            figure = figures.get(entry.pk)
            if figure is None:
                return (False, len(selectors.SEEDING_BASES), 0.0, position[entry.pk])
            return (False, selectors.SEEDING_BASES.index(figure[0]), -figure[1], position[entry.pk])

        ranked = sorted(entries, key=key)
        basis, points = {}, {}
        for entry in ranked:
            figure = figures.get(entry.pk)
            if entry.source == EntrySource.QUALIFIER:
                basis[entry.pk], points[entry.pk] = "qualifier_rank", entry.qualifier_rank
            elif figure is not None:
                basis[entry.pk], points[entry.pk] = figure
            else:
                basis[entry.pk], points[entry.pk] = "registration", None
    Entry.objects.filter(event=event).update(seed=None)
    for seed, entry in enumerate(ranked, start=1):
        entry.seed = seed
        entry.seeding_basis = basis[entry.pk]
        entry.seeding_points = points[entry.pk]
    Entry.objects.bulk_update(ranked, ["seed", "seeding_basis", "seeding_points"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.EVENT_SEED,
        target=event.name,
        details={
            "order": [e.pk for e in ranked],
            "by": "organiser" if order is not None else "ratings",
        },
    )
    return ranked


# --- Audit types: the actions this module writes, and their words ---------------------------


def _seed_words(details: dict, names: Any) -> str:
    order = details.get("order") or []
    top = ", ".join(names.entry(i) for i in order[:3])
    if details.get("by") == "organiser":
        seeded = ngettext(
            "%(count)s entries seeded by the organiser's order",
            "%(count)s entries seeded by the organiser's order",
            len(order),
        )
    else:
        seeded = ngettext(
            "%(count)s entries seeded by ratings",
            "%(count)s entries seeded by ratings",
            len(order),
        )
    seeded %= {"count": len(order)}
    if not top:
        return seeded
    return _("%(seeded)s; top seeds %(top)s") % {"seeded": seeded, "top": top}


# A pair's entry (sides.services.pairs) names its players, or says the partner confirmed it.
register_audit_type(AuditAction.ENTRY_REGISTER, details={"players": list, "confirmed": bool})
register_audit_type(AuditAction.ENTRY_WITHDRAW)
register_audit_type(
    AuditAction.EVENT_SEED, details={"order": list, "by": str}, describe=_seed_words
)
