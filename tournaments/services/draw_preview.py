"""The draw shown before it is stored (issue 28): what `draw_generate` would make with a seed,
and making exactly that draw.

A preview runs the real draw inside a savepoint and rolls it back, so what the organiser sees is
what the draw code makes, never a second implementation of it. The draw is deterministic given
its seed and the entries (their seeds, from ratings when unseeded), so making it again with the
same seed stores the same draw; the preview's token pins both: a digest of the active entries
(refused with "the entries changed") and a digest of the draw it made (refused if the draw would
now differ, e.g. the ratings that seed it moved). Both refusals come with a fresh preview.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from players.types import User
from tournaments.models import (
    SIDES,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    Match,
    QualifierPolicy,
    sides_of,
)
from tournaments.services.access import require_manager
from tournaments.services.draws import draw_generate

SEED_LIMIT = 2**31  # a new random seed: short enough to read out and type


@dataclass(frozen=True)
class PreviewMatch:
    """One match of the previewed draw's first round (a bracket slot, a group or Swiss
    pairing); a side is None for a bye."""

    index: int
    group: int | None
    side_a: str | None
    seed_a: int | None
    side_b: str | None
    seed_b: int | None
    is_bye: bool


@dataclass(frozen=True)
class PreviewGroup:
    number: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class DrawPreview:
    """What the draw with `draw_seed` makes, and the token that makes exactly it."""

    draw_seed: int
    token: str
    entries: int
    rounds: int
    first_round: str  # the first round's name as the draw stores it (English)
    matches: tuple[PreviewMatch, ...]
    groups: tuple[PreviewGroup, ...]
    seed_matters: bool


class _Shown(Exception):
    """Carries the preview out of the savepoint it is rolled back with."""

    def __init__(self, preview: DrawPreview) -> None:
        super().__init__("draw preview")
        self.preview = preview


def new_seed() -> int:
    return random.SystemRandom().randrange(SEED_LIMIT)


def seed_matters(event: Event) -> bool:
    """Whether the seed changes the draw: group draws and random sections do; a plain seeded
    bracket, a round robin and a Swiss first round follow the seeding alone."""
    if event.format == EventFormat.GROUPS:
        return event.groups_count > 1
    if event.format == EventFormat.KNOCKOUT:
        return event.sections > 1 or (
            event.feeds_from_id is not None
            and event.qualifier_policy == QualifierPolicy.DRAWN_INTO_SECTIONS
        )
    return False


def _digest(parts: list) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def entries_key(event: Event) -> str:
    """The active entries and their seeds: what the draw is made of."""
    return _digest(
        list(
            Entry.objects.filter(event=event, status=EntryStatus.ACTIVE)
            .order_by("pk")
            .values_list("pk", "seed", "source")
        )
    )


def draw_key(event: Event) -> str:
    """The stored draw: every match's round, group, place and sides, and every entry's group
    (deadlines follow the day it is made and are not part of it)."""
    matches = list(
        Match.objects.filter(event=event)
        .order_by("round__number", "group", "bracket_index", "entry_a", "entry_b")
        .values_list("round__number", "group", "bracket_index", "entry_a", "entry_b", "is_bye")
    )
    groups = list(
        Entry.objects.filter(event=event, status=EntryStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", "group")
    )
    return _digest([matches, groups])


def _shown(event: Event, draw_seed: int, entries_digest: str) -> DrawPreview:
    """The draw just made (inside the savepoint), as the page and the API show it."""
    rounds = list(event.rounds.order_by("number"))
    first = rounds[0] if rounds else None
    matches = (
        Match.objects.filter(round=first)
        .select_related(*sides_of("entry_a"), *sides_of("entry_b"))
        .order_by("group", "bracket_index", "pk")
        if first is not None
        else Match.objects.none()
    )
    shown = tuple(
        PreviewMatch(
            index=n,
            group=m.group,
            side_a=m.entry_a.name if m.entry_a else None,
            seed_a=m.entry_a.seed if m.entry_a else None,
            side_b=m.entry_b.name if m.entry_b else None,
            seed_b=m.entry_b.seed if m.entry_b else None,
            is_bye=m.is_bye,
        )
        for n, m in enumerate(matches, start=1)
    )
    members: dict[int, list[str]] = {}
    entries = (
        Entry.objects.filter(event=event, status=EntryStatus.ACTIVE)
        .select_related(*SIDES, "pair__player_a", "pair__player_b")
        .order_by("seed", "pk")
    )
    count = 0
    for entry in entries:
        count += 1
        if entry.group is not None:
            members.setdefault(entry.group, []).append(entry.name)
    return DrawPreview(
        draw_seed=draw_seed,
        token=f"{entries_digest}-{draw_key(event)}",
        entries=count,
        rounds=len(rounds),
        first_round=first.english_name if first is not None else "",
        matches=shown,
        groups=tuple(PreviewGroup(n, tuple(names)) for n, names in sorted(members.items())),
        seed_matters=seed_matters(event),
    )


def draw_preview(
    *, actor: User, event: Event, draw_seed: int | None = None, start: dt.datetime | None = None
) -> DrawPreview:
    """The draw `draw_generate` would make with this seed (a new random one if None), made and
    rolled back: nothing is stored, nothing is audited. Refusals are the draw's own."""
    require_manager(actor, event.championship)
    seed = new_seed() if draw_seed is None else draw_seed
    entries_digest = entries_key(event)
    try:
        with transaction.atomic():
            draw_generate(actor=actor, event=event, draw_seed=seed, start=start)
            raise _Shown(_shown(event, seed, entries_digest))
    except _Shown as shown:
        return shown.preview


class PreviewOutdated(ValidationError):
    """The preview no longer matches what the draw would store; `fresh` is today's."""

    def __init__(self, message: str, fresh: DrawPreview) -> None:
        super().__init__({"preview": message})
        self.fresh = fresh


def draw_make(
    *,
    actor: User,
    event: Event,
    draw_seed: int,
    preview: str,
    start: dt.datetime | None = None,
) -> Event:
    """Store the previewed draw: the same seed, and only if it makes the draw the preview
    showed. Otherwise nothing is stored and the refusal carries a fresh preview."""
    require_manager(actor, event.championship)
    expected_entries, _sep, expected_draw = preview.partition("-")
    outdated = ""
    try:
        with transaction.atomic():
            # The event row is locked first, as registration and withdrawal lock it: the
            # entries cannot change between the comparison and the draw.
            Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
            if entries_key(event) != expected_entries:
                outdated = _(
                    "The entries changed since this draw was shown: nothing is stored. Here is "
                    "the draw the same seed makes with today's entries."
                )
                raise _Outdated
            drawn = draw_generate(actor=actor, event=event, draw_seed=draw_seed, start=start)
            if draw_key(event) != expected_draw:
                outdated = _(
                    "This seed no longer makes the draw shown (the seeding changed): nothing is "
                    "stored. Here is the draw it makes now."
                )
                raise _Outdated
            return drawn
    except _Outdated:
        pass
    raise PreviewOutdated(outdated, draw_preview(actor=actor, event=event, draw_seed=draw_seed))


class _Outdated(Exception):
    """Rolls back a draw that is not the one previewed."""
