"""Draws: the first round (or every round, for groups and knockouts) of an event."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.types import User
from tournaments import formats
from tournaments.format_words import format_error_text
from tournaments.models import (
    MATCH_STATUSES,
    SIDES,
    AuditAction,
    Entry,
    EntrySource,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchStatus,
    QualifierPolicy,
    Round,
)
from tournaments.services.access import require_manager
from tournaments.services.audit import audit_entry
from tournaments.services.progression import match_finish
from tournaments.services.registration import event_seed
from tournaments.services.rounds import (
    DRAW_START_WINDOW,
    lineup_deadlines_set,
    round_deadline,
)
from tournaments.services.swiss_rounds import swiss_round_draw

# An entry's country (the group draw keeps countries apart) reads a pair's two players.
DRAW_SIDES = (*SIDES, "pair__player_a", "pair__player_b")


def _round_name(number: int, rounds: int) -> str:
    left = rounds - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(left, f"Round of {2 << left}")


@transaction.atomic
def draw_generate(
    *, actor: User, event: Event, draw_seed: int | None = None, start: dt.datetime | None = None
) -> Event:
    """Make the draw for the event's format and create its rounds and matches."""
    require_manager(actor, event.championship)
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=event.pk)
    )
    if event.status in (EventStatus.DRAWN, EventStatus.FINISHED):
        raise ValidationError({"event": _("The draw for this event has already been made.")})
    entries = list(event.entries.filter(status=EntryStatus.ACTIVE).select_related(*DRAW_SIDES))
    if len(entries) < 2:
        raise ValidationError(
            {
                "event": _("A draw needs at least 2 active entries, not %(entries)s.")
                % {"entries": len(entries)}
            }
        )
    if any(e.seed is None for e in entries):
        event_seed(actor=actor, event=event)
        entries = list(event.entries.filter(status=EntryStatus.ACTIVE).select_related(*DRAW_SIDES))
    entries.sort(key=lambda e: e.seed)
    if draw_seed is None:
        draw_seed = (
            event.draw_seed
            if event.draw_seed is not None
            else random.SystemRandom().randrange(2**31)
        )
    event.draw_seed = draw_seed
    now = timezone.now()
    start = start or now
    if not now - DRAW_START_WINDOW <= start <= now + DRAW_START_WINDOW:
        raise ValidationError(
            {"start": _("The first round must start within a year of today (before or after).")}
        )
    try:
        if event.format == EventFormat.KNOCKOUT:
            _draw_knockout(event, entries, start)
        elif event.format in (EventFormat.GROUPS, EventFormat.ROUND_ROBIN):
            _draw_groups(event, entries, start)
        else:
            swiss_round_draw(event, entries, 1, start)
    except formats.FormatError as exc:
        raise ValidationError({"event": format_error_text(exc)}) from None
    lineup_deadlines_set(event, list(event.rounds.all()))
    transition(
        event,
        EventStatus.DRAWN,
        fields={"draw_seed": event.draw_seed},
        audit=audit_entry(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.DRAW_GENERATE,
            target=event.name,
            details={"draw_seed": draw_seed, "entries": len(entries)},
        ),
    )
    if event.table_open:
        # Whichever button or endpoint started it, a table open is published face to face.
        rounds_prepare(event)
    return event


def rounds_prepare(event: Event) -> None:
    """Face to face (a table open): no deadlines, and a table number on every match (top board
    first)."""
    Round.objects.filter(event=event).exclude(deadline=None).update(deadline=None)
    for round_ in Round.objects.filter(event=event, matches__bracket_index=None).distinct():
        for index, match in enumerate(round_.matches.order_by("is_bye", "id")):
            Match.objects.filter(pk=match.pk).update(bracket_index=index)


def _draw_knockout(event: Event, entries: list[Entry], start: dt.datetime) -> None:
    by_seed = {e.seed: e for e in entries}
    direct = [e for e in entries if e.source == EntrySource.REGISTRATION]
    qualifiers = [e for e in entries if e.source == EntrySource.QUALIFIER]
    if qualifiers and direct:
        positions = formats.place_qualifiers(
            len(direct),
            len(qualifiers),
            policy=formats.QualifierPolicy(event.qualifier_policy),
            sections=event.sections,
            draw_seed=event.draw_seed
            if event.qualifier_policy == QualifierPolicy.DRAWN_INTO_SECTIONS
            else None,
        )
    elif event.sections > 1:
        positions = formats.sections_draw(
            len(entries), sections=event.sections, draw_seed=event.draw_seed
        )
    else:
        positions = formats.seeded_draw(len(entries))
    rounds_total = len(positions).bit_length() - 1
    rounds = [
        Round.objects.create(
            event=event,
            number=n,
            name=_round_name(n, rounds_total),
            deadline=round_deadline(event, start, n),
        )
        for n in range(1, rounds_total + 1)
    ]
    # Built from the final backwards, a round to one INSERT, so each match can point at the one
    # its winner goes to; the first round is created with its entries.
    later: dict[tuple[int, int], Match] = {}
    first_round = formats.pair_positions(positions)
    for number in range(rounds_total, 0, -1):
        built = []
        for index in range(formats.matches_in_round(number, rounds_total)):
            slot = formats.next_slot(number, index, rounds=rounds_total)
            match = Match(
                event=event,
                round=rounds[number - 1],
                bracket_index=index,
                next_match=later[(slot.round, slot.match)] if slot else None,
                next_side=slot.side if slot else None,
            )
            if number == 1:
                top, bottom = first_round[index]
                match.entry_a = by_seed.get(top) if top is not None else None
                match.entry_b = by_seed.get(bottom) if bottom is not None else None
                if match.entry_a is None or match.entry_b is None:
                    match.is_bye = True
                else:
                    transition(match, MatchStatus.SCHEDULED, save=False)  # not stored yet
            later[(number, index)] = match
            built.append(match)
        Match.objects.bulk_create(built)
    # Byes are settled once the whole first round exists, in bracket order: a bye's winner moves
    # on at once, and two byes side by side settle the match they feed.
    for index in range(len(first_round)):
        match = later[(1, index)]
        if match.is_bye:
            match_finish(
                match,
                winner=match.entry_a or match.entry_b,
                status=MatchStatus.WALKOVER,
                reason="bye",
            )


def _draw_groups(event: Event, entries: list[Entry], start: dt.datetime) -> None:
    groups = 1 if event.format == EventFormat.ROUND_ROBIN else event.groups_count
    if groups > len(entries) // 2:
        raise formats.FormatError(
            gettext_noop("%(entries)s entries cannot fill %(groups)s groups of at least 2 players"),
            entries=len(entries),
            groups=groups,
        )
    drawn = (
        formats.group_draw(
            [formats.GroupEntrant(e.pk, e.country_code) for e in entries],
            groups,
            method=formats.GroupDrawMethod.POTS,
            draw_seed=event.draw_seed,
        )
        if groups > 1
        else (tuple(e.pk for e in entries),)
    )
    by_id = {e.pk: e for e in entries}
    rounds: dict[int, Round] = {}
    matches = []
    # Every entry's group in one UPDATE (128 groups were 128 statements).
    Entry.objects.filter(pk__in=[pk for members in drawn for pk in members]).update(
        group=Case(
            *(When(pk__in=members, then=Value(n)) for n, members in enumerate(drawn, start=1))
        )
    )
    for group_number, members in enumerate(drawn, start=1):
        for rr_round in formats.round_robin(list(members), double=event.double_round_robin):
            if rr_round.number not in rounds:
                rounds[rr_round.number] = Round.objects.create(
                    event=event,
                    number=rr_round.number,
                    name=f"Round {rr_round.number}",
                    deadline=round_deadline(event, start, rr_round.number),
                )
            for a, b in rr_round.pairings:
                matches.append(
                    Match(
                        event=event,
                        round=rounds[rr_round.number],
                        group=group_number,
                        entry_a=by_id[a],
                        entry_b=by_id[b],
                        status=MATCH_STATUSES.first(MatchStatus.SCHEDULED),
                    )
                )
    Match.objects.bulk_create(matches)


# --- Audit types: the actions this module writes, and their words ---------------------------


def _draw_words(details: dict, names: Any) -> str:
    entries = details.get("entries") if isinstance(details.get("entries"), int) else 0
    return ngettext(
        "Draw seed %(seed)s, %(entries)s entry",
        "Draw seed %(seed)s, %(entries)s entries",
        entries,
    ) % {"seed": details.get("draw_seed"), "entries": entries}


register_audit_type(
    AuditAction.DRAW_GENERATE, details={"draw_seed": int, "entries": int}, describe=_draw_words
)
